package io.weir.streams;

/** A key and a value, as returned by {@code map} and {@code flatMap} functions. */
public record KeyValue<K, V>(K key, V value) {

    public static <K, V> KeyValue<K, V> pair(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
