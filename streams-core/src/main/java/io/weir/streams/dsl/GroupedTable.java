package io.weir.streams.dsl;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A table re-keyed by {@code Table.groupBy}, ready to be aggregated per new key. Each aggregation
 * takes a row's old value back with its subtractor and adds its new value with its adder. A group
 * whose every row was taken back is deleted (a tombstone downstream), as a relational {@code GROUP BY}
 * has no group without rows; Kafka Streams keeps it, with a count of 0 or what the subtractor left.
 */
public interface GroupedTable<K, V> {

    /**
     * Counts the rows per key.
     *
     * @param materialized the store of the counts: its name, type, key serde and emission
     * @return the table of the number of rows per key
     */
    Table<K, Long> count(Materialized<K, Long> materialized);

    /**
     * Counts the rows per key, in a store with a generated name.
     *
     * @return the table of the number of rows per key
     */
    Table<K, Long> count();

    /**
     * Combines the rows' values per key: {@code adder} adds a value, {@code subtractor} takes one back.
     *
     * @param adder combines the key's aggregate with a row's new value
     * @param subtractor takes a row's old value back out of the key's aggregate
     * @param materialized the store of the results: its name, type, serdes and emission
     * @return the table of the reduced value per key
     */
    Table<K, V> reduce(BinaryOperator<V> adder, BinaryOperator<V> subtractor, Materialized<K, V> materialized);

    /**
     * Folds the rows' values per key into an aggregate starting from {@code initializer}: {@code adder}
     * adds a row's value, {@code subtractor} takes one back.
     *
     * @param <A> the aggregate type
     * @param initializer gives the aggregate of a key before its first row
     * @param adder adds a row's new value to its key's aggregate
     * @param subtractor takes a row's old value back out of its key's aggregate
     * @param materialized the store of the aggregates: its name, type, serdes (the value serde is required) and
     *     emission
     * @return the table of the aggregate per key
     */
    <A> Table<K, A> aggregate(
            Supplier<A> initializer,
            Aggregator<? super K, ? super V, A> adder,
            Aggregator<? super K, ? super V, A> subtractor,
            Materialized<K, A> materialized);
}
