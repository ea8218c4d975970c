package io.weir.streams.internals.operator;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Entries an operator holds until a time reaches theirs, in a store of its own: {@code [time: 8,
 * sign-flipped][sequence: 8]}, so that releasing everything due is one range scan in time order (and,
 * within one time, in the order added). The sequence continues from the largest in the store when the
 * task starts, so a restored buffer keeps its order. An {@link EventTimeIndex} in memory says when there
 * is nothing to release. Single-threaded, like its task.
 */
public final class TimeOrderedBuffer {

    /** What {@link #release} hands over: an entry's time and stored value. */
    public interface Released {
        void accept(long time, byte[] value);
    }

    private final WriteBackCache store;
    private final EventTimeIndex times = new EventTimeIndex();
    private long sequence;

    public TimeOrderedBuffer(WriteBackCache store) {
        this.store = store;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteBuffer key = ByteBuffer.wrap(it.next().key());
                times.add(key.getLong() ^ Long.MIN_VALUE);
                sequence = Math.max(sequence, key.getLong() + 1);
            }
        }
    }

    /** Holds {@code value} until time reaches {@code time}. */
    public void add(long time, byte[] value) {
        store.put(key(time, sequence++), value);
        times.add(time);
    }

    /**
     * Removes every entry whose time is at or before {@code time} and hands each to {@code released}, in
     * time order; what {@code released} adds is kept for a later release.
     */
    public void release(long time, Released released) {
        if (!times.anyThrough(time)) {
            return;
        }
        List<ByteEntry> due = new ArrayList<>();
        byte[] to = time == Long.MAX_VALUE ? null : key(time + 1, 0);
        try (KeyValueIterator it = store.range(null, to)) {
            while (it.hasNext()) {
                due.add(it.next());
            }
        }
        for (ByteEntry entry : due) {
            store.delete(entry.key());
            long at = ByteBuffer.wrap(entry.key()).getLong() ^ Long.MIN_VALUE;
            times.remove(at);
            released.accept(at, entry.value());
        }
    }

    /** The number of entries held. */
    public long size() {
        return times.size();
    }

    private static byte[] key(long time, long sequence) {
        return ByteBuffer.allocate(16)
                .putLong(time ^ Long.MIN_VALUE)
                .putLong(sequence)
                .array();
    }
}
