package io.weir.streams.dsl;

/** Adds one record to an aggregate: {@code (key, value, aggregate) -> new aggregate}. */
@FunctionalInterface
public interface Aggregator<K, V, A> {
    /**
     * Adds a record to its aggregate.
     *
     * @param key the record's key
     * @param value the record's value
     * @param aggregate the aggregate so far
     * @return the new aggregate; null deletes the key's row in an aggregation without windows
     */
    A apply(K key, V value, A aggregate);
}
