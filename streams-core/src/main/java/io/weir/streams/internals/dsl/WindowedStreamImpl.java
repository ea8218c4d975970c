package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.GlobalWindows;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Merger;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.StoreView;
import io.weir.streams.internals.topology.WindowView;
import io.weir.streams.internals.window.WindowAggregateProcessor;
import io.weir.streams.internals.window.WindowAssigner;
import io.weir.streams.internals.window.WindowAssigners;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/** Builds the windowed aggregation node and its stores; every check that can fail does so here, at build time. */
final class WindowedStreamImpl<K, V> implements WindowedStream<K, V> {

    private final EventStreamImpl<K, V> stream;
    private final Windows windows;
    private final @Nullable String lateTopic;
    private final Trigger trigger;
    private final Refinement refinement;

    WindowedStreamImpl(EventStreamImpl<K, V> stream, Windows windows) {
        this(stream, windows, null, Trigger.onTime(), Refinement.ACCUMULATING);
    }

    private WindowedStreamImpl(
            EventStreamImpl<K, V> stream,
            Windows windows,
            @Nullable String lateTopic,
            Trigger trigger,
            Refinement refinement) {
        this.stream = stream;
        this.windows = windows;
        this.lateTopic = lateTopic;
        this.trigger = trigger;
        this.refinement = refinement;
    }

    @Override
    public WindowedStream<K, V> lateRecordsTo(String topic) {
        return new WindowedStreamImpl<>(
                stream, windows, Require.name("late-records topic", topic), trigger, refinement);
    }

    @Override
    public WindowedStream<K, V> withTrigger(Trigger newTrigger) {
        return new WindowedStreamImpl<>(
                stream, windows, lateTopic, Objects.requireNonNull(newTrigger, "trigger"), refinement);
    }

    @Override
    public WindowedStream<K, V> withRefinement(Refinement newRefinement) {
        return new WindowedStreamImpl<>(
                stream, windows, lateTopic, trigger, Objects.requireNonNull(newRefinement, "refinement"));
    }

    @Override
    public WindowedStream<K, V> finalResultsOnly() {
        return withTrigger(Trigger.atWindowClose());
    }

    @Override
    public WindowedTable<K, Long> count(Materialized<K, Long> materialized) {
        Objects.requireNonNull(materialized, "materialized");
        Serde<Long> valueSerde = materialized.valueSerde().orElse(Serdes.Long());
        return build("count", Aggregation.count(), materialized, valueSerde);
    }

    @Override
    public WindowedTable<K, Long> count() {
        return count(Materialized.with(null, null));
    }

    @Override
    public WindowedTable<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized) {
        Objects.requireNonNull(reducer, "reducer");
        Objects.requireNonNull(materialized, "materialized");
        Serde<V> valueSerde = materialized.valueSerde().orElse(stream.valueSerde);
        return build("reduce", Aggregation.reduce(reducer), materialized, valueSerde);
    }

    @Override
    public <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator, Materialized<K, A> materialized) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(materialized, "materialized");
        return build(
                "aggregate",
                Aggregation.of(initializer, aggregator, null),
                materialized,
                materialized.valueSerde().orElse(null));
    }

    @Override
    public <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer,
            Aggregator<? super K, ? super V, A> aggregator,
            Merger<? super K, A> merger,
            Materialized<K, A> materialized) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(merger, "merger");
        Objects.requireNonNull(materialized, "materialized");
        return build(
                "aggregate",
                Aggregation.of(initializer, aggregator, merger),
                materialized,
                materialized.valueSerde().orElse(null));
    }

    private <A> WindowedTable<K, A> build(
            String kind,
            Aggregation<K, V, A> aggregation,
            Materialized<K, A> materialized,
            @Nullable Serde<A> aggSerde) {
        GraphBuilder graph = stream.graph;
        String storeName = materialized.storeName().orElseGet(() -> graph.newName("window-" + kind));
        String operator = kind + " into store '" + storeName + "'";
        Serde<K> keySerde = materialized.keySerde().orElse(stream.keySerde);
        if (keySerde == null) {
            throw new IllegalStateException(operator + ": the key serde is unknown (after a "
                    + "map, or a merge of streams with different serdes); give it with Materialized.withKeySerde(...)");
        }
        if (aggSerde == null) {
            throw new IllegalStateException(
                    operator + ": the value serde is unknown; give it with Materialized.withValueSerde(...)");
        }
        checkTriggerAndRefinement(operator, aggregation);
        graph.useSerde(keySerde, true);
        graph.useSerde(aggSerde, false);
        long lateness = TimeMath.millis(windows.allowedLateness());
        Set<String> mergeLogs = new LinkedHashSet<>();
        WindowAggregateProcessor.Settings<K, V, A> settings = new WindowAggregateProcessor.Settings<>(
                aggregation, lateness, trigger, refinement, storeName, lateTopic, keySerde, aggSerde, mergeLogs);
        Set<String> stores = new HashSet<>();
        Supplier<WindowAssigner<K, V, A>> assigner;
        if (windows instanceof SlidingWindows sliding) {
            String recordStore = storeName + "-records";
            assigner = slidingAssigner(sliding, recordStore, lateness);
            addStore(
                    graph,
                    stores,
                    recordStore,
                    materialized,
                    retention(TimeMath.plus(TimeMath.millis(sliding.timeDifference()), 1)),
                    null);
        } else if (windows instanceof SessionWindows session) {
            String indexStore = storeName + "-sessions";
            long gap = TimeMath.millis(session.gap());
            long cap = session.maxSessionLength().map(TimeMath::millis).orElse(Long.MAX_VALUE);
            assigner = () -> WindowAssigners.sessions(gap, cap, indexStore);
            addStore(graph, stores, indexStore, materialized, retention(gap), null);
        } else if (windows instanceof GlobalWindows) {
            assigner = () -> WindowAssigners.global();
        } else if (windows instanceof TumblingWindows tumbling) {
            long size = TimeMath.millis(tumbling.size());
            assigner = () -> WindowAssigners.tumbling(size);
        } else {
            HoppingWindows hopping = (HoppingWindows) windows;
            long size = TimeMath.millis(hopping.size());
            long advance = TimeMath.millis(hopping.advance());
            assigner = () -> WindowAssigners.hopping(size, advance);
        }
        Supplier<Processor<K, V>> processor = () -> new WindowAggregateProcessor<>(assigner.get(), settings);
        addStore(
                graph,
                stores,
                storeName,
                materialized,
                windows instanceof GlobalWindows ? -1 : retention(span()),
                queryable(storeName, keySerde, aggSerde));
        Set<String> outputs = new HashSet<>();
        if (lateTopic != null) {
            outputs.add(lateTopic);
        }
        String node = graph.addNode(storeName, stream.nodes, processor, stores, outputs);
        return new WindowedTableImpl<>(graph, node, storeName, mergeLogs, keySerde, aggSerde, windows, refinement);
    }

    /** The combinations that make no sense, refused with the operator in the message. */
    private void checkTriggerAndRefinement(String operator, Aggregation<K, V, ?> aggregation) {
        if (windows instanceof SessionWindows && !aggregation.mergeable()) {
            throw new IllegalStateException(
                    operator + ": session windows merge when a record bridges two sessions, "
                            + "so the aggregation needs a merger: use aggregate(initializer, aggregator, merger, materialized)");
        }
        if (windows instanceof GlobalWindows) {
            if (!trigger.firesEarly()) {
                throw new IllegalStateException(operator + ": global windows never end, so " + trigger
                        + " would only fire at the end of a bounded input; give a trigger that fires early, such as "
                        + "Trigger.afterCount(n) or Trigger.onTime().withEarlyFirings(interval)");
            }
            if (trigger.lateFiringInterval().isPresent()) {
                throw new IllegalStateException(operator + ": no record is late for a global window, so " + trigger
                        + " has no late firings to make");
            }
        }
        if (trigger.lateFiringInterval().isPresent()
                && windows.allowedLateness().isZero()) {
            throw new IllegalStateException(operator + ": " + trigger + " sets late firings, but " + windows
                    + " has no allowed lateness, so no late record is ever added; set withAllowedLateness(...)");
        }
        if (trigger.firesAtWindowCloseOnly() && refinement != Refinement.ACCUMULATING) {
            throw new IllegalStateException(operator + ": " + trigger + " emits one pane per window, so refinement "
                    + refinement + " has nothing to refine; leave the refinement at ACCUMULATING");
        }
    }

    /** How queries read the aggregation's window store: as sessions, or as windows of one span. */
    private <A> WindowView<K, A> queryable(String storeName, Serde<K> keySerde, Serde<A> aggSerde) {
        if (windows instanceof SessionWindows session) {
            return WindowView.sessions(
                    storeName,
                    keySerde,
                    aggSerde,
                    TimeMath.millis(session.gap()),
                    session.maxSessionLength().map(TimeMath::millis).orElse(WindowView.UNBOUNDED));
        }
        return WindowView.windows(
                storeName, keySerde, aggSerde, windows instanceof GlobalWindows ? WindowView.UNBOUNDED : span());
    }

    /** Adds a store of the aggregation, read by queries through {@code queryable} (null: an internal store). */
    private static void addStore(
            GraphBuilder graph,
            Set<String> stores,
            String name,
            Materialized<?, ?> materialized,
            long retention,
            @Nullable StoreView queryable) {
        if (materialized.retention().isPresent()) {
            throw new IllegalStateException("Store '" + name + "': withRetention is for keyed processors' window "
                    + "stores; a windowed aggregation keeps each window until its allowed lateness has passed "
                    + "(Windows.withAllowedLateness)");
        }
        if (materialized.timeToLive().isPresent()
                || materialized.historyRetention().isPresent()) {
            throw new IllegalStateException(
                    "Store '" + name + "': withTimeToLive and versioned are for tables; a windowed "
                            + "aggregation purges each window when the watermark passes its end plus its allowed lateness");
        }
        if (materialized.emitsEveryChange()) {
            throw new IllegalStateException("Store '" + name + "': withEmitEveryChange is for tables; a windowed "
                    + "aggregation emits panes as its trigger says (Trigger.afterCount(1) fires on every record)");
        }
        StoreSpec spec = new StoreSpec(name, materialized.storeType(), materialized.loggingEnabled(), retention);
        graph.addStore(queryable == null ? spec : spec.queryableAs(queryable));
        stores.add(name);
    }

    /** The longest a window is open: its size (tumbling, hopping), the sliding time difference plus one, or the session gap. */
    private long span() {
        if (windows instanceof TumblingWindows t) {
            return TimeMath.millis(t.size());
        }
        if (windows instanceof HoppingWindows h) {
            return TimeMath.millis(h.size());
        }
        if (windows instanceof SessionWindows s) {
            return TimeMath.millis(s.gap());
        }
        return TimeMath.plus(TimeMath.millis(((SlidingWindows) windows).timeDifference()), 1);
    }

    /**
     * Changelog retention: the window span plus allowed lateness plus a day of slack, as Kafka Streams
     * keeps. A session is rewritten under a new key each time it grows, so its gap is its span here.
     */
    private long retention(long span) {
        return TimeMath.plus(TimeMath.plus(span, TimeMath.millis(windows.allowedLateness())), 24L * 60 * 60 * 1000);
    }

    private <A> Supplier<WindowAssigner<K, V, A>> slidingAssigner(
            SlidingWindows sliding, String recordStore, long lateness) {
        Serde<V> valueSerde = stream.valueSerde;
        if (valueSerde == null) {
            throw new IllegalStateException("Sliding windows keep each key's records in store '" + recordStore
                    + "', so they need the stream's value serde, which is unknown after a mapValues or map "
                    + "(or a merge of streams with different serdes); "
                    + "aggregate a stream whose value serde is known");
        }
        long difference = TimeMath.millis(sliding.timeDifference());
        stream.graph.useSerde(valueSerde, false);
        return () -> WindowAssigners.sliding(difference, lateness, recordStore, valueSerde);
    }
}
