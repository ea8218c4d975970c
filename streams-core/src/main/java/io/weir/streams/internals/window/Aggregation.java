package io.weir.streams.internals.window;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.Merger;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * The fold a windowed aggregation applies: count, reduce and aggregate are all one of these. Session
 * windows also need {@link #merge}, which only mergeable aggregations have.
 */
public interface Aggregation<K, V, A> {

    /** The aggregate of an empty window (null for reduce, which starts from its first value). */
    A initial();

    A add(K key, V value, A aggregate);

    /** Whether {@link #merge} is defined. */
    boolean mergeable();

    /** The aggregate of the union of two windows' records. */
    A merge(K key, A first, A second);

    static <K, V> Aggregation<K, V, Long> count() {
        return of(() -> 0L, (key, value, count) -> count + 1, (key, a, b) -> a + b);
    }

    static <K, V> Aggregation<K, V, V> reduce(BinaryOperator<V> reducer) {
        return of(
                () -> null,
                (key, value, aggregate) -> aggregate == null ? value : reducer.apply(aggregate, value),
                (key, a, b) -> a == null ? b : b == null ? a : reducer.apply(a, b));
    }

    /** An aggregation that cannot merge (null {@code merger}) or can. */
    static <K, V, A> Aggregation<K, V, A> of(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> adder, Merger<? super K, A> merger) {
        return new Aggregation<>() {
            @Override
            public A initial() {
                return initializer.get();
            }

            @Override
            public A add(K key, V value, A aggregate) {
                return adder.apply(key, value, aggregate);
            }

            @Override
            public boolean mergeable() {
                return merger != null;
            }

            @Override
            public A merge(K key, A first, A second) {
                if (merger == null) {
                    throw new IllegalStateException("This aggregation has no merger");
                }
                return merger.apply(key, first, second);
            }
        };
    }
}
