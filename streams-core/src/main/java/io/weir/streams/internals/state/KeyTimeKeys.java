package io.weir.streams.internals.state;

import java.nio.ByteBuffer;

/**
 * Store keys of entries kept per key and event time: {@code [key length: int][key bytes][event time: 8,
 * sign-flipped]} (a longer prefix may stand for the key, as deduplication's key and id). The key first,
 * so one key's entries are one range in time order, and the entries of a key within an interval of
 * event time are one bounded range scan. Used by versioned tables' history, deduplication and join
 * buffers.
 */
public final class KeyTimeKeys {

    private KeyTimeKeys() {}

    /** {@code [key length][key]}: what every entry of {@code key} starts with. */
    public static byte[] prefix(byte[] key) {
        return ByteBuffer.allocate(4 + key.length).putInt(key.length).put(key).array();
    }

    /** The entry of {@code prefix} at {@code time}; also the scan bound for that time. */
    public static byte[] at(byte[] prefix, long time) {
        return ByteBuffer.allocate(prefix.length + 8)
                .put(prefix)
                .putLong(time ^ Long.MIN_VALUE)
                .array();
    }

    /** The event time of an entry. */
    public static long time(byte[] storeKey) {
        return ByteBuffer.wrap(storeKey, storeKey.length - 8, 8).getLong() ^ Long.MIN_VALUE;
    }

    /** The key bytes of an entry made with {@link #prefix}. */
    public static byte[] key(byte[] storeKey) {
        int length = ByteBuffer.wrap(storeKey, 0, 4).getInt();
        byte[] key = new byte[length];
        System.arraycopy(storeKey, 4, key, 0, length);
        return key;
    }
}
