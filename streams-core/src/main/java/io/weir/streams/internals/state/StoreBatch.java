package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of one commit to one {@link BytesStore}: range deletes, then point puts and deletes in
 * the order given, then metadata — all applied atomically by {@link BytesStore#write}.
 * Range deletes come first so that a commit can expire old windows and write new ones at once.
 */
public final class StoreBatch {

    /** One point write; {@code value == null} deletes the key. */
    public record Put(byte[] key, byte @Nullable [] value) {}

    /** Deletes every key with {@code from <= key < to}; a null bound is open. */
    public record RangeDelete(byte @Nullable [] from, byte @Nullable [] to) {}

    private final List<RangeDelete> rangeDeletes = new ArrayList<>();
    private final List<Put> puts = new ArrayList<>();
    private final Map<String, byte @Nullable []> metadata = new LinkedHashMap<>();

    public StoreBatch deleteRange(byte @Nullable [] from, byte @Nullable [] to) {
        rangeDeletes.add(new RangeDelete(from, to));
        return this;
    }

    public StoreBatch put(byte[] key, byte @Nullable [] value) {
        puts.add(new Put(key, value));
        return this;
    }

    public StoreBatch delete(byte[] key) {
        return put(key, null);
    }

    /** Sets metadata {@code key}; a null value removes it. */
    public StoreBatch putMetadata(String key, byte @Nullable [] value) {
        metadata.put(key, value);
        return this;
    }

    public List<RangeDelete> rangeDeletes() {
        return Collections.unmodifiableList(rangeDeletes);
    }

    public List<Put> puts() {
        return Collections.unmodifiableList(puts);
    }

    public Map<String, byte @Nullable []> metadata() {
        return Collections.unmodifiableMap(metadata);
    }

    public boolean isEmpty() {
        return rangeDeletes.isEmpty() && puts.isEmpty() && metadata.isEmpty();
    }
}
