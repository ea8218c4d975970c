package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.keyed.KeyedProcessorNode;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.table.TableAggregation;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.WindowView;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

final class GroupedStreamImpl<K, V> implements GroupedStream<K, V> {

    private final EventStreamImpl<K, V> stream;

    GroupedStreamImpl(EventStreamImpl<K, V> stream) {
        this.stream = stream;
    }

    /**
     * {@code stream} grouped by its key: as it is while its key is the one its input is partitioned by,
     * else repartitioned by it through a topic first.
     */
    static <K, V> GroupedStreamImpl<K, V> byKey(EventStreamImpl<K, V> stream, Grouped<K, V> grouped) {
        Objects.requireNonNull(grouped, "grouped");
        Serde<K> k = grouped.keySerde().orElse(stream.keySerde);
        Serde<V> v = grouped.valueSerde().orElse(stream.valueSerde);
        if (!stream.keyChanged) {
            if (grouped.numberOfPartitions().isPresent()) {
                throw new IllegalStateException(
                        "groupByKey(" + grouped.name().orElse("") + "): the key was not "
                                + "changed, so there is no repartition topic to give "
                                + grouped.numberOfPartitions().getAsInt()
                                + " partitions; repartition(Repartitioned.with(keySerde, valueSerde).withNumberOfPartitions(n)) first");
            }
            return new GroupedStreamImpl<>(new EventStreamImpl<>(stream.graph, stream.nodes, k, v, false));
        }
        String base = grouped.name().orElseGet(() -> stream.graph.newName("group"));
        if (k == null || v == null) {
            throw new IllegalStateException("groupByKey() '" + base + "': the key was changed, so records are "
                    + "repartitioned through a topic, and the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown; pass Grouped.with(keySerde, valueSerde)");
        }
        return new GroupedStreamImpl<>(
                stream.through(base, k, v, grouped.numberOfPartitions().orElse(-1)));
    }

    @Override
    public Table<K, Long> count(Materialized<K, Long> materialized) {
        Objects.requireNonNull(materialized, "materialized");
        return aggregate(
                "count",
                TableAggregation.count(false),
                materialized,
                materialized.valueSerde().orElse(Serdes.Long()));
    }

    @Override
    public Table<K, Long> count() {
        return count(Materialized.with(null, null));
    }

    @Override
    public Table<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized) {
        Objects.requireNonNull(reducer, "reducer");
        Objects.requireNonNull(materialized, "materialized");
        return aggregate(
                "reduce",
                TableAggregation.reduce(reducer, null),
                materialized,
                materialized.valueSerde().orElse(stream.valueSerde));
    }

    @Override
    public <A> Table<K, A> aggregate(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator, Materialized<K, A> materialized) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(materialized, "materialized");
        return aggregate(
                "aggregate",
                new TableAggregation<>(Aggregation.of(initializer, aggregator, null), null),
                materialized,
                materialized.valueSerde().orElse(null));
    }

    private <A> Table<K, A> aggregate(
            String kind,
            TableAggregation<K, V, A> aggregation,
            Materialized<K, A> materialized,
            @Nullable Serde<A> aggSerde) {
        return TableAggregates.build(
                stream.graph, stream.nodes, kind, aggregation, false, materialized, stream.keySerde, aggSerde);
    }

    @Override
    public WindowedStream<K, V> windowedBy(Windows windows) {
        return new WindowedStreamImpl<>(stream, Objects.requireNonNull(windows, "windows"));
    }

    @Override
    public <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Materialized<?, ?>... stores) {
        return addProcessor(processor, stream.graph.newName("process"), stores);
    }

    @Override
    public <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Named named, Materialized<?, ?>... stores) {
        return addProcessor(processor, Objects.requireNonNull(named, "named").name(), stores);
    }

    private <KOut, VOut> EventStream<KOut, VOut> addProcessor(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, String node, Materialized<?, ?>... stores) {
        Objects.requireNonNull(processor, "processor");
        GraphBuilder graph = stream.graph;
        Serde<K> keySerde = stream.keySerde;
        if (keySerde == null) {
            throw new IllegalStateException("process '" + node + "': the key serde is unknown, and timers are kept by "
                    + "key; give it with groupByKey(Grouped.with(keySerde, valueSerde))");
        }
        graph.useSerde(keySerde, true);
        List<KeyedProcessorNode.StoreSerdes> declared = new ArrayList<>();
        Set<String> storeNames = new HashSet<>();
        for (int i = 0; i < stores.length; i++) {
            Materialized<?, ?> store = Objects.requireNonNull(stores[i], "store #" + (i + 1));
            if (store.storeName().isEmpty()
                    || store.keySerde().isEmpty()
                    || store.valueSerde().isEmpty()) {
                throw new IllegalStateException(
                        "process '" + node + "': store #" + (i + 1) + " needs a name, a key serde "
                                + "and a value serde: Materialized.as(name).withKeySerde(...).withValueSerde(...)");
            }
            if (store.timeToLive().isPresent() || store.historyRetention().isPresent()) {
                throw new IllegalStateException("process '" + node + "': store #" + (i + 1) + " sets "
                        + "withTimeToLive or versioned, which are for tables; give a keyed processor's store withRetention, or "
                        + "delete entries from a timer");
            }
            if (store.emitsEveryChange()) {
                throw new IllegalStateException("process '" + node + "': store #" + (i + 1) + " sets "
                        + "withEmitEveryChange, which is for tables; a keyed processor emits what it forwards");
            }
            String name = store.storeName().get();
            long retention = store.retention().map(TimeMath::millis).orElse(-1L);
            // A window store's purges are range deletes, which leave no tombstone in the changelog: its
            // changelog deletes by time too, a day after the retention, as for window aggregations.
            long changelogRetention = retention < 0
                    ? -1
                    : TimeMath.plus(retention, Duration.ofDays(1).toMillis());
            StoreSpec spec = new StoreSpec(name, store.storeType(), store.loggingEnabled(), changelogRetention);
            graph.addStore(spec.queryableAs(
                    retention < 0
                            ? KeyValueView.plain(
                                    name,
                                    store.keySerde().get(),
                                    store.valueSerde().get())
                            : WindowView.times(
                                    name,
                                    store.keySerde().get(),
                                    store.valueSerde().get())));
            storeNames.add(name);
            graph.useSerde(store.keySerde().get(), true);
            graph.useSerde(store.valueSerde().get(), false);
            declared.add(new KeyedProcessorNode.StoreSerdes(
                    name, store.keySerde().get(), store.valueSerde().get(), retention));
        }
        // Timers live where the processor's state does: in-memory stores get in-memory timers. They always
        // have a changelog, even beside unlogged stores: a timer lost when its task moves never fires.
        String timerStore = node + "-timers";
        StoreType timerStoreType = stores.length > 0 ? stores[0].storeType() : StoreType.ROCKSDB;
        graph.addStore(new StoreSpec(timerStore, timerStoreType, true, -1));
        storeNames.add(timerStore);
        List<KeyedProcessorNode.StoreSerdes> storeSerdes = List.copyOf(declared);
        graph.addNode(
                node,
                stream.nodes,
                () -> new KeyedProcessorNode<>(processor.get(), keySerde, storeSerdes, timerStore),
                storeNames,
                Set.of());
        return new EventStreamImpl<>(graph, List.of(node), null, null, true);
    }
}
