package io.weir.streams.internals.operator;

import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.state.WriteBackCache;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Which of an operator's entries expire when, in a store of its own: one entry {@code [expiry: 8,
 * sign-flipped][entry key]} per entry, so a watermark advance finds exactly the expired entries with
 * one range scan in expiry order, never a scan of every entry, and deletes them one by one, so the
 * changelog carries their tombstones. An {@link EventTimeIndex} in memory, rebuilt from the store when
 * the task starts, says when there is nothing to scan. Used by the deduplication operator (ids expire
 * after their interval); the time-to-live of tables is to use it too. Single-threaded, like its task.
 */
public final class ExpiryIndex {

    private static final byte[] EMPTY = new byte[0];

    private final WriteBackCache store;
    private final EventTimeIndex counts = new EventTimeIndex();

    public ExpiryIndex(WriteBackCache store) {
        this.store = store;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                counts.add(WindowKeys.end(it.next().key()));
            }
        }
    }

    /**
     * Notes that the entry {@code key} expires once time reaches {@code expiry}, which must be later than
     * the last {@link #expire} (an entry due by then is the caller's to delete at once).
     */
    public void add(long expiry, byte[] key) {
        if (expiry <= counts.purgedThrough()) {
            throw new IllegalArgumentException("An entry expiring at " + expiry + " is due already (expired through "
                    + counts.purgedThrough() + ")");
        }
        store.put(indexKey(expiry, key), EMPTY);
        counts.add(expiry);
    }

    /** Forgets the expiry of entry {@code key} (it was deleted before it expired). */
    public void remove(long expiry, byte[] key) {
        store.delete(indexKey(expiry, key));
        counts.remove(expiry);
    }

    /**
     * Removes every entry whose expiry is at or before {@code time}, handing each one's key to
     * {@code expired} in expiry order; the caller deletes the entry itself.
     */
    public void expire(long time, Consumer<byte[]> expired) {
        if (!counts.anyThrough(time)) {
            return;
        }
        List<byte[]> due = new ArrayList<>();
        byte[] to = time == Long.MAX_VALUE ? null : WindowKeys.endBound(time + 1);
        try (KeyValueIterator it = store.range(WindowKeys.endBound(counts.purgedThrough()), to)) {
            while (it.hasNext()) {
                due.add(it.next().key());
            }
        }
        for (byte[] indexKey : due) {
            store.delete(indexKey);
            byte[] key = new byte[indexKey.length - 8];
            System.arraycopy(indexKey, 8, key, 0, key.length);
            expired.accept(key);
        }
        counts.purgeThrough(time);
    }

    /** Whether an entry not yet expired has its expiry at or before {@code time}. */
    public boolean anyDue(long time) {
        return counts.anyThrough(time);
    }

    /** The number of entries not yet expired. */
    public long size() {
        return counts.size();
    }

    private static byte[] indexKey(long expiry, byte[] key) {
        return ByteBuffer.allocate(8 + key.length)
                .putLong(expiry ^ Long.MIN_VALUE)
                .put(key)
                .array();
    }
}
