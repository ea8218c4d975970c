package io.weir.streams.internals.state;

import io.weir.streams.time.Window;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Store keys of window state: {@code [end][start][key bytes]}, the two longs big-endian with the sign
 * bit flipped so that byte order is numeric order (negative starts exist: an epoch-aligned hopping
 * window can start before 0). Ordering by window end first makes "every window that ends by W" one
 * range scan and expiry one range delete, never a scan of every key.
 */
public final class WindowKeys {

    private static final int PREFIX = 16;

    private WindowKeys() {}

    public static byte[] encode(long end, long start, byte[] key) {
        return ByteBuffer.allocate(PREFIX + key.length)
                .putLong(end ^ Long.MIN_VALUE)
                .putLong(start ^ Long.MIN_VALUE)
                .put(key)
                .array();
    }

    /** The smallest store key of a window ending at {@code end}: a scan bound. */
    public static byte[] endBound(long end) {
        return ByteBuffer.allocate(8).putLong(end ^ Long.MIN_VALUE).array();
    }

    public static long end(byte[] storeKey) {
        return ByteBuffer.wrap(storeKey, 0, 8).getLong() ^ Long.MIN_VALUE;
    }

    public static long start(byte[] storeKey) {
        return ByteBuffer.wrap(storeKey, 8, 8).getLong() ^ Long.MIN_VALUE;
    }

    public static Window window(byte[] storeKey) {
        return new Window(start(storeKey), end(storeKey));
    }

    /** Whether {@code storeKey} is a window of {@code key} (its key bytes), without copying them out. */
    public static boolean hasKey(byte[] storeKey, byte[] key) {
        return Arrays.equals(storeKey, PREFIX, storeKey.length, key, 0, key.length);
    }

    public static byte[] key(byte[] storeKey) {
        byte[] key = new byte[storeKey.length - PREFIX];
        System.arraycopy(storeKey, PREFIX, key, 0, key.length);
        return key;
    }
}
