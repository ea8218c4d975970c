package io.weir.streams.state;

import org.jspecify.annotations.Nullable;

/**
 * A key-value state store of a keyed processor, local to its task and backed by a changelog topic.
 * Reads see the task's own uncommitted writes; writes become durable with the task's next commit,
 * together with the output and input offsets of that commit (exactly-once). Single-threaded, like
 * the processor that uses it; the runtime owns and closes it.
 */
public interface KeyValueStore<K, V> extends ReadOnlyKeyValueStore<K, V> {

    /**
     * Sets the value of {@code key}; a null value deletes it.
     *
     * @param key the key; not null
     * @param value the new value, or null to delete the key
     */
    void put(K key, @Nullable V value);

    /**
     * Deletes the value of {@code key}, if it has one.
     *
     * @param key the key; not null
     */
    void delete(K key);
}
