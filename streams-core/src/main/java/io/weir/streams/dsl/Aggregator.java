package io.weir.streams.dsl;

/** Adds one record to an aggregate: {@code (key, value, aggregate) -> new aggregate}. */
@FunctionalInterface
public interface Aggregator<K, V, A> {
    A apply(K key, V value, A aggregate);
}
