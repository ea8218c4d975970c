package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;

import java.util.List;
import java.util.function.LongFunction;

/**
 * Windows that follow from a record's event time alone — tumbling, hopping, global — each starting
 * empty.
 */
final class FixedWindowFunction<K, V, A> implements WindowFunction<K, V, A> {

    /** The one window of global windows: every record of a key belongs to it. */
    static final Window GLOBAL = new Window(Long.MIN_VALUE, Long.MAX_VALUE);

    private final LongFunction<List<Window>> windowsOf;
    private final Aggregation<K, V, A> aggregation;

    FixedWindowFunction(LongFunction<List<Window>> windowsOf, Aggregation<K, V, A> aggregation) {
        this.windowsOf = windowsOf;
        this.aggregation = aggregation;
    }

    @Override
    public List<Window> windowsFor(K key, byte[] keyBytes, long t) {
        return windowsOf.apply(t);
    }

    @Override
    public A initial(K key, Window window) {
        return aggregation.initial();
    }
}
