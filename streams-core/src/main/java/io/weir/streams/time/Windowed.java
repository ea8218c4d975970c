package io.weir.streams.time;

/**
 * The key of a windowed result: the grouping key and the window it was computed over.
 *
 * @param <K> the grouping key's type
 * @param key the grouping key
 * @param window the window the result was computed over
 */
public record Windowed<K>(K key, Window window) {

    @Override
    public String toString() {
        return key + "@" + window;
    }
}
