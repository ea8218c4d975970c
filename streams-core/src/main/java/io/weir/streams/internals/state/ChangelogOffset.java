package io.weir.streams.internals.state;

import org.apache.kafka.common.Uuid;
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

    /**
     * The store metadata key of the changelog's topic id (16 bytes), which tells the changelog the store was
     * built from from one recreated under the same name since: offsets alone cannot.
     */
    public static final String TOPIC_ID_KEY = "changelog-topic-id";

    private ChangelogOffset() {}

    /** The metadata value for {@code offset}. */
    public static byte[] bytes(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }

    /** The metadata value for topic id {@code id}. */
    public static byte[] topicId(Uuid id) {
        return ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array();
    }

    /** The id of the changelog topic {@code store} was built from, or null when it has none recorded. */
    public static @Nullable Uuid topicIdOf(BytesStore store) {
        byte[] stored = store.metadata(TOPIC_ID_KEY);
        if (stored == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(stored);
        return new Uuid(b.getLong(), b.getLong());
    }

    /** The offset {@code store} holds its changelog up to, or null if it holds none (a new or wiped store). */
    public static @Nullable Long of(BytesStore store) {
        byte[] stored = store.metadata(KEY);
        return stored == null ? null : ByteBuffer.wrap(stored).getLong();
    }
}
