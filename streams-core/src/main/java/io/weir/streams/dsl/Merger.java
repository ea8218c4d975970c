package io.weir.streams.dsl;

/**
 * Combines the aggregates of two session windows of one key that a record merged into one. Must
 * agree with the aggregator: merging the aggregates of two sets of records gives the aggregate of
 * their union.
 */
@FunctionalInterface
public interface Merger<K, A> {

    /**
     * Merges two sessions' aggregates into the merged session's.
     *
     * @param key the sessions' key
     * @param aggregate1 the aggregate of one session
     * @param aggregate2 the aggregate of the other
     * @return the aggregate of the merged session; not null
     */
    A apply(K key, A aggregate1, A aggregate2);
}
