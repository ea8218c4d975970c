package io.weir.streams.state;

import org.jspecify.annotations.Nullable;

/**
 * A keyed processor's store of values by key and event time, declared with {@code
 * Materialized.as(name)...withRetention(retention)}: local to its task, backed by a changelog topic,
 * committed with the task (exactly-once), like a {@link KeyValueStore}. An entry at time {@code t} is
 * kept until the task's watermark reaches {@code t + retention}, then purged, before any read can see
 * it again; a put whose time has already expired is dropped and counted ({@code expired-puts-dropped},
 * under the store's name). So state follows event time: a processor that keeps, say, the clicks of
 * the last 30 minutes per user never deletes them by hand.
 *
 * <p>Reads see the task's own uncommitted writes. Entries are ordered by time, then by the key's
 * serialized bytes: {@link #fetchAll} scans a time range; {@link #fetch(Object, long, long, Entries)}
 * scans the same range and keeps one key's entries, so its cost grows with the range, not with the key.
 * Single-threaded, like the processor that uses it; the runtime owns and closes it.
 */
public interface WindowStore<K, V> {

    /** What a scan calls for each entry, in time order. */
    @FunctionalInterface
    interface Entries<K, V> {
        /**
         * Called with one entry of a scan.
         *
         * @param key the entry's key
         * @param time the entry's time, in epoch milliseconds
         * @param value the entry's value, never null
         */
        void accept(K key, long time, V value);
    }

    /**
     * Sets the value of {@code key} at {@code time}; a null value deletes it.
     *
     * @param key the key; not null
     * @param value the value, or null to delete the entry
     * @param time the entry's event time, in epoch milliseconds
     * @throws IllegalArgumentException for {@code time == Long.MAX_VALUE}, which stands for the end of input
     */
    void put(K key, @Nullable V value, long time);

    /**
     * The value of {@code key} at {@code time}, or null.
     *
     * @param key the key to look up
     * @param time the entry's time, in epoch milliseconds
     * @return the entry's value, or null
     */
    @Nullable
    V fetch(K key, long time);

    /**
     * Calls {@code action} for the entries of {@code key} with a time in {@code [timeFrom, timeTo]}.
     *
     * @param key the key whose entries to read
     * @param timeFrom the earliest time, in epoch milliseconds, inclusive
     * @param timeTo the latest time, in epoch milliseconds, inclusive
     * @param action called with each entry of the key, in time order
     */
    void fetch(K key, long timeFrom, long timeTo, Entries<? super K, ? super V> action);

    /**
     * Calls {@code action} for every entry with a time in {@code [timeFrom, timeTo]}.
     *
     * @param timeFrom the earliest time, in epoch milliseconds, inclusive
     * @param timeTo the latest time, in epoch milliseconds, inclusive
     * @param action called with each entry, in time order
     */
    void fetchAll(long timeFrom, long timeTo, Entries<? super K, ? super V> action);

    /**
     * Deletes the value of {@code key} at {@code time}.
     *
     * @param key the key of the entry to delete
     * @param time the entry's time, in epoch milliseconds
     */
    void delete(K key, long time);
}
