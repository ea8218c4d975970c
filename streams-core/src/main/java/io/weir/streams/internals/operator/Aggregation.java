package io.weir.streams.internals.operator;

import io.weir.streams.dsl.Aggregator;
import io.weir.streams.dsl.Merger;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * The fold a windowed aggregation applies: count, reduce and aggregate are all one of these. Session
 * windows also need {@link #merge}, which only mergeable aggregations have. An aggregate is null only
 * in a reduce, before its first value.
 */
public interface Aggregation<K, V, A> {

    /** The aggregate of an empty window (null for reduce, which starts from its first value). */
    @Nullable
    A initial();

    @Nullable
    A add(K key, V value, @Nullable A aggregate);

    /** Whether {@link #merge} is defined. */
    boolean mergeable();

    /** The aggregate of the union of two windows' records. */
    @Nullable
    A merge(K key, @Nullable A first, @Nullable A second);

    static <K, V> Aggregation<K, V, Long> count() {
        return of(() -> 0L, (key, value, count) -> count + 1, (key, a, b) -> a + b);
    }

    /** Combines values with {@code reducer}; a window's aggregate is its first value, then the reductions. */
    static <K, V> Aggregation<K, V, V> reduce(BinaryOperator<V> reducer) {
        return new Aggregation<>() {
            @Override
            public @Nullable V initial() {
                return null;
            }

            @Override
            public V add(K key, V value, @Nullable V aggregate) {
                return aggregate == null ? value : reducer.apply(aggregate, value);
            }

            @Override
            public boolean mergeable() {
                return true;
            }

            @Override
            public @Nullable V merge(K key, @Nullable V first, @Nullable V second) {
                return first == null ? second : second == null ? first : reducer.apply(first, second);
            }
        };
    }

    /**
     * An aggregation that starts from {@code initializer}'s value and cannot merge (null {@code merger})
     * or can. Its aggregates are never null: the initializer, adder and merger return values.
     */
    static <K, V, A> Aggregation<K, V, A> of(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> adder, @Nullable Merger<? super K, A> merger) {
        return new Aggregation<>() {
            @Override
            public A initial() {
                return initializer.get();
            }

            @Override
            public A add(K key, V value, @Nullable A aggregate) {
                return adder.apply(key, value, present(aggregate));
            }

            @Override
            public boolean mergeable() {
                return merger != null;
            }

            @Override
            public A merge(K key, @Nullable A first, @Nullable A second) {
                if (merger == null) {
                    throw new IllegalStateException("This aggregation has no merger");
                }
                return merger.apply(key, present(first), present(second));
            }

            private A present(@Nullable A aggregate) {
                return Objects.requireNonNull(
                        aggregate, "an aggregate is null: the initializer or aggregator returned null");
            }
        };
    }
}
