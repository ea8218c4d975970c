package io.weir.streams.state;

import org.jspecify.annotations.Nullable;

/**
 * The reads of a versioned table ({@code Materialized.versioned}): each key's values by event time.
 * A version is valid from its event time until the next version's; a delete is a version without a
 * value.
 */
public interface VersionedKeyValueStore<K, V> {

    /**
     * The value with the latest event time, or null when the key has none or its latest version is a delete.
     *
     * @param key the key to look up
     * @return the current value, or null
     */
    @Nullable
    V get(K key);

    /**
     * The value valid at {@code asOf}: the version with the largest event time at or before it. Null
     * when there is none or it is a delete. Within the history retention behind the watermark the answer
     * is exact; further back the versions may be gone, and the answer is null unless the latest version
     * is valid since then.
     *
     * @param key the key to look up
     * @param asOf the event time to read at, in epoch milliseconds
     * @return the value valid at {@code asOf}, or null
     */
    @Nullable
    V get(K key, long asOf);
}
