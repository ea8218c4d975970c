package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;

import java.util.List;

/** Tumbling and hopping windows: a record's windows follow from its event time; each starts empty. */
final class FixedWindowFunction<K, V, A> implements WindowFunction<K, V, A> {

    private final WindowAssigner assigner;
    private final Aggregation<K, V, A> aggregation;

    FixedWindowFunction(WindowAssigner assigner, Aggregation<K, V, A> aggregation) {
        this.assigner = assigner;
        this.aggregation = aggregation;
    }

    @Override
    public List<Window> windowsFor(K key, byte[] keyBytes, long t) {
        return assigner.windowsFor(t);
    }

    @Override
    public A initial(K key, Window window) {
        return aggregation.initial();
    }
}
