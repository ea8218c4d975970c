package io.weir.streams.dsl;

/**
 * Combines the aggregates of two session windows of one key that a record merged into one. Must
 * agree with the aggregator: merging the aggregates of two sets of records gives the aggregate of
 * their union.
 */
@FunctionalInterface
public interface Merger<K, A> {

    A apply(K key, A aggregate1, A aggregate2);
}
