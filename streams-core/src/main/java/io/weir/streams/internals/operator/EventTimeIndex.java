package io.weir.streams.internals.operator;

import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * How many entries an operator's store holds per event time (a window's end; a buffered record's
 * expiry): kept in memory beside the store so that a watermark advance with nothing to fire or
 * purge costs no store scan, and so that the entries are counted exactly. The operator rebuilds it
 * from its store when its task starts.
 *
 * <p>Entries are purged in order: {@link #purgeThrough} drops every time up to a bound and remembers
 * the bound, so the next purge's store scan can start past what earlier purges deleted.
 * Single-threaded, except {@link #size()}, which gauges read from other threads.
 */
// One writer (the operator's task thread): volatile only publishes the size to gauges on other threads.
@SuppressWarnings("NonAtomicVolatileUpdate")
public final class EventTimeIndex {

    private final NavigableMap<Long, Integer> countByTime = new TreeMap<>();
    private volatile long size;
    private long purgedThrough = Long.MIN_VALUE;

    public void add(long time) {
        countByTime.merge(time, 1, Integer::sum);
        size++;
    }

    /** Removes one entry at {@code time}; nothing when there is none. */
    public void remove(long time) {
        Integer count = countByTime.get(time);
        if (count == null) {
            return;
        }
        if (count == 1) {
            countByTime.remove(time);
        } else {
            countByTime.put(time, count - 1);
        }
        size--;
    }

    /** Whether an entry has its time in {@code [from, to]}. */
    public boolean anyIn(long from, long to) {
        return !countByTime.subMap(from, true, to, true).isEmpty();
    }

    /** Whether an entry has its time at or before {@code time}. */
    public boolean anyThrough(long time) {
        return !countByTime.headMap(time, true).isEmpty();
    }

    /** Forgets every entry with its time at or before {@code time}: the operator purged them from its store. */
    public void purgeThrough(long time) {
        NavigableMap<Long, Integer> purged = countByTime.headMap(time, true);
        for (int count : purged.values()) {
            size -= count;
        }
        purged.clear();
        purgedThrough = time;
    }

    /** The bound of the last purge; {@code Long.MIN_VALUE} before the first. */
    public long purgedThrough() {
        return purgedThrough;
    }

    /** The number of entries. */
    public long size() {
        return size;
    }
}
