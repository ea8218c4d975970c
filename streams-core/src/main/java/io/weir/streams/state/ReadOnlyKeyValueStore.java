package io.weir.streams.state;

import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/**
 * The reads of a key-value store: a keyed processor's own {@link KeyValueStore}, or a global table
 * ({@code KeyedProcessorContext.globalTable}), which every instance holds whole and keeps current from
 * its topic.
 */
public interface ReadOnlyKeyValueStore<K, V> {

    /**
     * The value of {@code key}, or null when it has none.
     *
     * @param key the key to look up
     * @return the key's value, or null
     */
    @Nullable
    V get(K key);

    /**
     * Calls {@code action} for every entry, in the order of the serialized keys' bytes.
     *
     * @param action called with each key and value
     */
    void forEach(BiConsumer<? super K, ? super V> action);

    /**
     * Calls {@code action} for the entries whose serialized key is at least {@code from}'s and below
     * {@code to}'s, compared as unsigned bytes (a null bound is open), in that order. The order is the
     * key serde's byte order: it matches the keys' natural order for UTF-8 strings and for fixed-width
     * big-endian non-negative numbers, not for negative numbers or variable-length encodings.
     *
     * @param from the lower bound, inclusive; null for no lower bound
     * @param to the upper bound, exclusive; null for no upper bound
     * @param action called with each key and value in the range
     */
    void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action);

    /**
     * Calls {@code action} for the entries whose serialized key starts with {@code prefix} serialized by
     * {@code prefixSerializer}, in serialized-key order: e.g. every {@code "user-42|..."} key with
     * {@code prefixScan("user-42|", Serdes.String().serializer(), ...)}.
     *
     * @param <P> the prefix's type
     * @param prefix the prefix the serialized keys must start with
     * @param prefixSerializer serializes {@code prefix} as the keys are serialized
     * @param action called with each key and value whose key has the prefix
     */
    <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action);
}
