package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;

import java.util.List;

/** Global windows: every record of a key belongs to the one window {@code [Long.MIN_VALUE, Long.MAX_VALUE)}. */
final class GlobalWindowFunction<K, V, A> implements WindowFunction<K, V, A> {

    static final Window GLOBAL = new Window(Long.MIN_VALUE, Long.MAX_VALUE);

    private final Aggregation<K, V, A> aggregation;

    GlobalWindowFunction(Aggregation<K, V, A> aggregation) {
        this.aggregation = aggregation;
    }

    @Override
    public List<Window> windowsFor(K key, byte[] keyBytes, long t) {
        return List.of(GLOBAL);
    }

    @Override
    public A initial(K key, Window window) {
        return aggregation.initial();
    }
}
