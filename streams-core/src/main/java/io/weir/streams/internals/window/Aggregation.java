package io.weir.streams.internals.window;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/** The fold a windowed aggregation applies: count, reduce and aggregate are all one of these. */
public interface Aggregation<K, V, A> {

    /** The aggregate of an empty window (null for reduce, which starts from its first value). */
    A initial();

    A add(K key, V value, A aggregate);

    static <K, V> Aggregation<K, V, Long> count() {
        return of(() -> 0L, (key, value, count) -> count + 1);
    }

    static <K, V> Aggregation<K, V, V> reduce(BinaryOperator<V> reducer) {
        return of(() -> null, (key, value, aggregate) -> aggregate == null ? value : reducer.apply(aggregate, value));
    }

    static <K, V, A> Aggregation<K, V, A> of(Supplier<A> initializer, io.weir.streams.dsl.Aggregator<? super K, ? super V, A> adder) {
        return new Aggregation<>() {
            @Override
            public A initial() {
                return initializer.get();
            }

            @Override
            public A add(K key, V value, A aggregate) {
                return adder.apply(key, value, aggregate);
            }
        };
    }
}
