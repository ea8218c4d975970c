package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.window.Aggregation;
import io.weir.streams.internals.window.WindowAggregateProcessor;
import io.weir.streams.internals.window.WindowAssigner;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import org.apache.kafka.common.serialization.Serde;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/** Builds the windowed aggregation node and its store; every check that can fail does so here, at build time. */
final class WindowedStreamImpl<K, V> implements WindowedStream<K, V> {

    private final EventStreamImpl<K, V> stream;
    private final Windows windows;
    private final String lateTopic;

    WindowedStreamImpl(EventStreamImpl<K, V> stream, Windows windows, String lateTopic) {
        this.stream = stream;
        this.windows = windows;
        this.lateTopic = lateTopic;
    }

    @Override
    public WindowedStream<K, V> lateRecordsTo(String topic) {
        return new WindowedStreamImpl<>(stream, windows, Require.name("late-records topic", topic));
    }

    @Override
    public WindowedTable<K, Long> count(Materialized<K, Long> materialized) {
        Objects.requireNonNull(materialized, "materialized");
        Serde<Long> valueSerde = materialized.valueSerde() != null ? materialized.valueSerde() : Serdes.Long();
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
        Serde<V> valueSerde = materialized.valueSerde() != null ? materialized.valueSerde() : stream.valueSerde;
        return build("reduce", Aggregation.reduce(reducer), materialized, valueSerde);
    }

    @Override
    public <A> WindowedTable<K, A> aggregate(Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator,
                                             Materialized<K, A> materialized) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(materialized, "materialized");
        return build("aggregate", Aggregation.of(initializer, aggregator), materialized, materialized.valueSerde());
    }

    private <A> WindowedTable<K, A> build(String kind, Aggregation<K, V, A> aggregation, Materialized<K, A> materialized,
                                          Serde<A> aggSerde) {
        GraphBuilder graph = stream.graph;
        String storeName = materialized.storeName() != null ? materialized.storeName() : graph.newName("window-" + kind);
        Serde<K> keySerde = materialized.keySerde() != null ? materialized.keySerde() : stream.keySerde;
        if (keySerde == null) {
            throw new IllegalStateException(kind + " into store '" + storeName + "': the key serde is unknown (after a "
                    + "map, or a merge of streams with different serdes); give it with Materialized.withKeySerde(...)");
        }
        if (aggSerde == null) {
            throw new IllegalStateException(kind + " into store '" + storeName + "': the value serde is unknown; give "
                    + "it with Materialized.withValueSerde(...)");
        }
        long lateness = windows.allowedLateness().toMillis();
        Set<String> stores = new HashSet<>();
        stores.add(storeName);
        Supplier<Processor<K, V>> processor;
        if (windows instanceof SlidingWindows sliding) {
            String recordStore = storeName + "-records";
            processor = slidingProcessor(sliding, aggregation, storeName, recordStore, keySerde, aggSerde, lateness);
            graph.addStore(new StoreSpec(recordStore, materialized.storeType(), true, retention(sliding.timeDifference().toMillis() + 1)));
            stores.add(recordStore);
        } else {
            WindowAssigner assigner = windows instanceof TumblingWindows tumbling
                    ? WindowAssigner.tumbling(tumbling) : WindowAssigner.hopping((HoppingWindows) windows);
            processor = () -> WindowAggregateProcessor.fixed(assigner, lateness, aggregation, storeName, lateTopic,
                    keySerde, aggSerde);
        }
        graph.addStore(new StoreSpec(storeName, materialized.storeType(), true, retention(span())));
        Set<String> outputs = new HashSet<>();
        if (lateTopic != null) {
            outputs.add(lateTopic);
        }
        String node = graph.addNode(storeName, stream.nodes, processor, stores, outputs);
        return () -> new EventStreamImpl<>(graph, List.of(node), WindowedSerdes.of(keySerde), aggSerde, true);
    }

    /** The longest a window is open: its size (tumbling, hopping) or the sliding time difference plus one. */
    private long span() {
        if (windows instanceof TumblingWindows t) {
            return t.size().toMillis();
        }
        if (windows instanceof HoppingWindows h) {
            return h.size().toMillis();
        }
        return ((SlidingWindows) windows).timeDifference().toMillis() + 1;
    }

    /** Changelog retention: the window span plus allowed lateness plus a day of slack, as Kafka Streams keeps. */
    private long retention(long span) {
        return TimeMath.plus(TimeMath.plus(span, windows.allowedLateness().toMillis()), 24L * 60 * 60 * 1000);
    }

    private <A> Supplier<Processor<K, V>> slidingProcessor(SlidingWindows sliding, Aggregation<K, V, A> aggregation,
                                                             String storeName, String recordStore, Serde<K> keySerde,
                                                             Serde<A> aggSerde, long lateness) {
        Serde<V> valueSerde = stream.valueSerde;
        if (valueSerde == null) {
            throw new IllegalStateException("Sliding windows keep each key's records in store '" + recordStore
                    + "', so they need the stream's value serde, which is unknown after a mapValues or map "
                    + "(or a merge of streams with different serdes); "
                    + "aggregate a stream whose value serde is known");
        }
        long difference = sliding.timeDifference().toMillis();
        return () -> WindowAggregateProcessor.sliding(difference, lateness, aggregation, storeName, recordStore, lateTopic,
                keySerde, valueSerde, aggSerde);
    }
}
