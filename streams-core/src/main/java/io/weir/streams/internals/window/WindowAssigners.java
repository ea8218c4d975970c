package io.weir.streams.internals.window;

import org.apache.kafka.common.serialization.Serde;

/** Makes the {@link WindowAssigner} of each window kind; a new one per task, since some keep state. */
public final class WindowAssigners {

    private WindowAssigners() {}

    public static <K, V, A> WindowAssigner<K, V, A> tumbling(long size, Aggregation<K, V, A> aggregation) {
        return FixedWindowAssigner.tumbling(size, aggregation);
    }

    public static <K, V, A> WindowAssigner<K, V, A> hopping(long size, long advance, Aggregation<K, V, A> aggregation) {
        return FixedWindowAssigner.hopping(size, advance, aggregation);
    }

    public static <K, V, A> WindowAssigner<K, V, A> global(Aggregation<K, V, A> aggregation) {
        return new GlobalWindowAssigner<>(aggregation);
    }

    /**
     * Sliding windows of {@code timeDifference}, keeping each key's records in the store
     * {@code recordStore} while a window may need them (see {@link SlidingWindowAssigner}).
     */
    public static <K, V, A> WindowAssigner<K, V, A> sliding(
            long timeDifference,
            long allowedLateness,
            Aggregation<K, V, A> aggregation,
            String recordStore,
            Serde<V> valueSerde) {
        return new SlidingWindowAssigner<>(timeDifference, allowedLateness, aggregation, recordStore, valueSerde);
    }

    /**
     * Session windows of {@code gap}, each at most {@code maxLength} long ({@code Long.MAX_VALUE}: no
     * cap), found per key through the index store {@code indexStore}.
     */
    public static <K, V, A> WindowAssigner<K, V, A> sessions(
            long gap, long maxLength, String indexStore, Aggregation<K, V, A> aggregation) {
        return new SessionWindowAssigner<>(gap, maxLength, indexStore, aggregation);
    }
}
