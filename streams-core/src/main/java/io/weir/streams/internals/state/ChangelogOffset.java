package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;

/**
 * Where a store stands in its changelog: the next changelog offset its contents do not include yet. Kept
 * in the store's metadata under {@link #KEY} and written in the same batch as the data it describes, so
 * that after a crash the two still agree and a restore replays the changelog from there.
 */
public final class ChangelogOffset {

    /** The store metadata key. */
    public static final String KEY = "changelog-offset";

    private ChangelogOffset() {}

    /** The metadata value for {@code offset}. */
    public static byte[] bytes(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }

    /** The offset {@code store} holds its changelog up to, or null if it holds none (a new or wiped store). */
    public static @Nullable Long of(BytesStore store) {
        byte[] stored = store.metadata(KEY);
        return stored == null ? null : ByteBuffer.wrap(stored).getLong();
    }
}
