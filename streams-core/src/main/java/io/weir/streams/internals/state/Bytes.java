package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.util.Arrays;

/** Helpers for keys ordered as unsigned lexicographic bytes, the order of every {@link BytesStore}. */
public final class Bytes {

    private Bytes() {}

    /**
     * Whether {@code [from, to)} contains no key: only when both bounds are given and {@code from >= to},
     * since a null (open) bound never empties a range.
     */
    static boolean isEmptyRange(byte @Nullable [] from, byte @Nullable [] to) {
        return from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
    }

    /** The smallest key greater than {@code key}: {@code key} followed by one zero byte. */
    static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * The smallest key greater than every key starting with {@code prefix}: the prefix with its last
     * byte below 0xFF incremented and what follows dropped; null (open) when every byte is 0xFF or the
     * prefix is empty.
     */
    public static byte @Nullable [] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /** {@code a} followed by {@code b}. */
    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
