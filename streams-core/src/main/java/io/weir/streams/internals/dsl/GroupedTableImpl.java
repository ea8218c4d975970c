package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.GroupedTable;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.table.TableAggregation;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/** A re-keyed table: {@code nodes} emit its changes per new key, read back from the repartition topic. */
final class GroupedTableImpl<K, V> implements GroupedTable<K, V> {

    private final GraphBuilder graph;
    private final List<String> nodes;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    GroupedTableImpl(GraphBuilder graph, List<String> nodes, Serde<K> keySerde, Serde<V> valueSerde) {
        this.graph = graph;
        this.nodes = nodes;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public Table<K, Long> count(Materialized<K, Long> materialized) {
        Objects.requireNonNull(materialized, "materialized");
        return build(
                "count",
                TableAggregation.count(true),
                materialized,
                materialized.valueSerde().orElse(Serdes.Long()));
    }

    @Override
    public Table<K, Long> count() {
        return count(Materialized.with(null, null));
    }

    @Override
    public Table<K, V> reduce(BinaryOperator<V> adder, BinaryOperator<V> subtractor, Materialized<K, V> materialized) {
        Objects.requireNonNull(adder, "adder");
        Objects.requireNonNull(subtractor, "subtractor");
        Objects.requireNonNull(materialized, "materialized");
        return build(
                "reduce",
                TableAggregation.reduce(adder, subtractor),
                materialized,
                materialized.valueSerde().orElse(valueSerde));
    }

    @Override
    public <A> Table<K, A> aggregate(
            Supplier<A> initializer,
            Aggregator<? super K, ? super V, A> adder,
            Aggregator<? super K, ? super V, A> subtractor,
            Materialized<K, A> materialized) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(adder, "adder");
        Objects.requireNonNull(subtractor, "subtractor");
        Objects.requireNonNull(materialized, "materialized");
        return build(
                "aggregate",
                new TableAggregation<>(Aggregation.of(initializer, adder, null), subtractor),
                materialized,
                materialized.valueSerde().orElse(null));
    }

    /** A {@code kind} aggregation of this re-keyed table's changes. */
    private <A> Table<K, A> build(
            String kind,
            TableAggregation<K, V, A> aggregation,
            Materialized<K, A> materialized,
            @Nullable Serde<A> aggSerde) {
        return TableAggregates.build(graph, nodes, kind, aggregation, true, materialized, keySerde, aggSerde);
    }
}
