package io.weir.streams.state;

import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/**
 * A key-value state store of a keyed processor, local to its task and backed by a changelog topic.
 * Reads see the task's own uncommitted writes; writes become durable with the task's next commit,
 * together with the output and input offsets of that commit (exactly-once). Single-threaded, like
 * the processor that uses it; the runtime owns and closes it.
 */
public interface KeyValueStore<K, V> {

    /** The value of {@code key}, or null when it has none. */
    @Nullable
    V get(K key);

    /** Sets the value of {@code key}; a null value deletes it. */
    void put(K key, @Nullable V value);

    void delete(K key);

    /** Calls {@code action} for every entry, in the order of the serialized keys' bytes. */
    void forEach(BiConsumer<? super K, ? super V> action);

    /**
     * Calls {@code action} for the entries whose serialized key is at least {@code from}'s and below
     * {@code to}'s, compared as unsigned bytes (a null bound is open), in that order. The order is the
     * key serde's byte order: it matches the keys' natural order for UTF-8 strings and for fixed-width
     * big-endian non-negative numbers, not for negative numbers or variable-length encodings.
     */
    void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action);

    /**
     * Calls {@code action} for the entries whose serialized key starts with {@code prefix} serialized by
     * {@code prefixSerializer}, in serialized-key order: e.g. every {@code "user-42|..."} key with
     * {@code prefixScan("user-42|", Serdes.String().serializer(), ...)}.
     */
    <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action);
}
