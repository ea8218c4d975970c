package io.weir.streams.internals.table;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.internals.operator.Aggregation;
import org.jspecify.annotations.Nullable;

import java.util.function.BinaryOperator;

/**
 * A non-windowed aggregation: how a value is added (the same {@link Aggregation} windows use) and, for
 * an aggregation of a table, how a row's old value is taken back. A group whose every row was taken
 * back is deleted, so the subtractor never has to produce an "empty" aggregate.
 *
 * @param subtractor null for an aggregation of a stream, which only adds
 */
public record TableAggregation<K, V, A>(
        Aggregation<K, V, A> adding, @Nullable Aggregator<? super K, ? super V, A> subtractor) {

    public static <K, V> TableAggregation<K, V, Long> count(boolean subtracts) {
        return new TableAggregation<>(Aggregation.count(), subtracts ? (key, value, count) -> count - 1 : null);
    }

    public static <K, V> TableAggregation<K, V, V> reduce(
            BinaryOperator<V> adder, @Nullable BinaryOperator<V> subtractor) {
        return new TableAggregation<>(
                Aggregation.reduce(adder),
                subtractor == null ? null : (key, value, agg) -> subtractor.apply(agg, value));
    }

    /** Takes {@code value} back out of {@code aggregate}. */
    A subtract(K key, V value, A aggregate) {
        if (subtractor == null) {
            throw new IllegalStateException("This aggregation of a stream has no subtractor");
        }
        return subtractor.apply(key, value, aggregate);
    }
}
