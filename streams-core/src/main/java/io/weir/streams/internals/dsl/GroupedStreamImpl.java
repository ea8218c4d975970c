package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.keyed.AsyncKeyedProcessorNode;
import io.weir.streams.internals.keyed.KeyedProcessorNode;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.table.TableAggregation;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

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
        Serde<K> keySerde = stream.keySerde;
        if (keySerde == null) {
            throw new IllegalStateException("process '" + node + "': the key serde is unknown, and timers are kept by "
                    + "key; give it with groupByKey(Grouped.with(keySerde, valueSerde))");
        }
        KeyedProcessorPlan.Declared declared =
                KeyedProcessorPlan.declare(stream.graph, "process", node, keySerde, stores);
        return KeyedProcessorPlan.wire(
                stream,
                node,
                declared,
                Set.of(),
                () -> new KeyedProcessorNode<>(processor.get(), keySerde, declared.stores(), declared.timerStore()));
    }

    @Override
    public <R, KOut, VOut> EventStream<KOut, VOut> processAsync(
            Supplier<? extends AsyncKeyedProcessor<K, V, R, KOut, VOut>> processor,
            Async<K, V> async,
            Materialized<?, ?>... stores) {
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(async, "async");
        String node = async.name().orElseGet(() -> stream.graph.newName("process-async"));
        AsyncPlan.HeldSerdes<K, V> serdes = AsyncPlan.heldSerdes(stream, async, "processAsync", node);
        KeyedProcessorPlan.Declared declared =
                KeyedProcessorPlan.declare(stream.graph, "processAsync", node, serdes.keySerde(), stores);
        AsyncKeyedProcessorNode.Settings<K, V> settings = new AsyncKeyedProcessorNode.Settings<>(
                node,
                AsyncPlan.settings(async),
                serdes.keySerde(),
                serdes.valueSerde(),
                declared.stores(),
                declared.timerStore());
        stream.graph.addStore(AsyncPlan.heldStore(node, async));
        return KeyedProcessorPlan.wire(
                stream, node, declared, Set.of(node), () -> new AsyncKeyedProcessorNode<>(settings, processor.get()));
    }
}
