package io.weir.streams.dsl;

/** The key of a windowed result: the grouping key and the window it was computed over. */
public record Windowed<K>(K key, Window window) {

    @Override
    public String toString() {
        return key + "@" + window;
    }
}
