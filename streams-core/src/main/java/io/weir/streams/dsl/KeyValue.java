package io.weir.streams.dsl;

/**
 * A key and a value, as returned by {@code map} and {@code flatMap} functions.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param key the record's key; null only where the stream allows null keys (keyed operators skip them)
 * @param value the record's value; may be null
 */
public record KeyValue<K, V>(K key, V value) {

    /**
     * A key and a value: the same as the constructor, shorter to read in a lambda.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param key the record's key
     * @param value the record's value; may be null
     * @return a new pair
     */
    public static <K, V> KeyValue<K, V> pair(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
