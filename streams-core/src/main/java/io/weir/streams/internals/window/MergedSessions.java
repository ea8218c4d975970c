package io.weir.streams.internals.window;

import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.time.Window;

import java.nio.ByteBuffer;

/**
 * The log of sessions a merge absorbed, which a session aggregation keeps for the table views of its
 * results ({@code WindowedTable.toTable()}): one entry {@code [key length][key][start: 8][end: 8]} (times
 * sign-flipped) per absorbed session, written by the aggregation in the same task and commit as the
 * merge, and taken by the view when the session that absorbed it emits, so the view deletes exactly the
 * sessions that merged, never one that closed. A key's entries are one range in start order.
 */
public final class MergedSessions {

    private MergedSessions() {}

    /** The entry of session {@code window} of the key serialized as {@code key}. */
    public static byte[] entry(byte[] key, Window window) {
        return ByteBuffer.allocate(4 + key.length + 16)
                .put(KeyTimeKeys.at(KeyTimeKeys.prefix(key), window.start()))
                .putLong(window.end() ^ Long.MIN_VALUE)
                .array();
    }

    /** The first possible entry of the key serialized as {@code key} with a start at or after {@code start}. */
    public static byte[] from(byte[] key, long start) {
        return KeyTimeKeys.at(KeyTimeKeys.prefix(key), start);
    }

    /** The session an entry names. */
    public static Window window(byte[] entry) {
        ByteBuffer b = ByteBuffer.wrap(entry, entry.length - 16, 16);
        return new Window(b.getLong() ^ Long.MIN_VALUE, b.getLong() ^ Long.MIN_VALUE);
    }
}
