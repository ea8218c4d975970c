package io.weir.streams.internals.window;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.Window;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sessions of each key, for finding the ones a record overlaps: a logged store keyed
 * {@code [key length][key][end][start]} (ends and starts sign-flipped big-endian, so byte order is
 * numeric order) whose value is one byte, 1 for a sealed session. The session aggregates themselves
 * live in the window store, ordered by end so that firing and expiry stay range operations; this index
 * is what a per-key lookup needs, and both change in the same commit.
 */
final class SessionIndex {

    private final WriteBackCache store;
    private final long maxLength;

    /** {@code maxLength}: the session length cap, or {@code Long.MAX_VALUE} for none. */
    SessionIndex(WriteBackCache store, long maxLength) {
        this.store = store;
        this.maxLength = maxLength;
    }

    /** A session of a key, and whether it is sealed. */
    record Session(Window window, boolean sealed) {}

    /**
     * The sessions of {@code key} that overlap or touch {@code [from, to]} ({@code start <= to} and
     * {@code end >= from}), by end. Live unsealed sessions of a key never overlap or touch each other,
     * and a sealed one overlaps only sessions started after it, so without a cap the scan stops at the
     * first session starting after {@code to}; with a cap, sessions are at most {@code maxLength} long
     * and the scan stops at ends beyond {@code to + maxLength}.
     */
    List<Session> overlapping(byte[] key, long from, long to) {
        List<Session> found = new ArrayList<>(2);
        byte[] prefix = prefix(key);
        try (KeyValueIterator it = store.range(encode(prefix, from, Long.MIN_VALUE), successor(prefix))) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                ByteBuffer k = ByteBuffer.wrap(entry.key(), prefix.length, 16);
                long end = k.getLong() ^ Long.MIN_VALUE;
                long start = k.getLong() ^ Long.MIN_VALUE;
                if (maxLength == Long.MAX_VALUE ? start > to : end - maxLength > to) {
                    break;
                }
                if (start <= to) {
                    found.add(new Session(new Window(start, end), entry.value()[0] == 1));
                }
            }
        }
        return found;
    }

    void put(byte[] key, Window window, boolean sealed) {
        store.put(encode(prefix(key), window.end(), window.start()), new byte[] {(byte) (sealed ? 1 : 0)});
    }

    void remove(byte[] key, Window window) {
        store.delete(encode(prefix(key), window.end(), window.start()));
    }

    private static byte[] prefix(byte[] key) {
        return ByteBuffer.allocate(4 + key.length).putInt(key.length).put(key).array();
    }

    private static byte[] encode(byte[] prefix, long end, long start) {
        return ByteBuffer.allocate(prefix.length + 16)
                .put(prefix)
                .putLong(end ^ Long.MIN_VALUE)
                .putLong(start ^ Long.MIN_VALUE)
                .array();
    }

    /** The smallest byte string greater than every key starting with {@code prefix}; null when there is none. */
    private static byte @Nullable [] successor(byte[] prefix) {
        byte[] next = prefix.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xFF) {
                next[i]++;
                return Arrays.copyOf(next, i + 1);
            }
        }
        return null;
    }
}
