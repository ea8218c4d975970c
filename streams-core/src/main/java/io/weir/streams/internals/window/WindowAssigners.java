package io.weir.streams.internals.window;

import org.apache.kafka.common.serialization.Serde;

/** Makes the {@link WindowAssigner} of each window kind; a new one per task, since some keep state. */
public final class WindowAssigners {

    private WindowAssigners() {}

    public static <K, V, A> WindowAssigner<K, V, A> tumbling(long size) {
        return FixedWindowAssigner.tumbling(size);
    }

    public static <K, V, A> WindowAssigner<K, V, A> hopping(long size, long advance) {
        return FixedWindowAssigner.hopping(size, advance);
    }

    public static <K, V, A> WindowAssigner<K, V, A> global() {
        return new GlobalWindowAssigner<>();
    }

    /**
     * Sliding windows of {@code timeDifference}, keeping each key's records in the store
     * {@code recordStore} while a window may need them (see {@link SlidingWindowAssigner}).
     */
    public static <K, V, A> WindowAssigner<K, V, A> sliding(
            long timeDifference, long allowedLateness, String recordStore, Serde<V> valueSerde) {
        return new SlidingWindowAssigner<>(timeDifference, allowedLateness, recordStore, valueSerde);
    }

    /**
     * Session windows of {@code gap}, each at most {@code maxLength} long ({@code Long.MAX_VALUE}: no
     * cap), found per key through the index store {@code indexStore}.
     */
    public static <K, V, A> WindowAssigner<K, V, A> sessions(long gap, long maxLength, String indexStore) {
        return new SessionWindowAssigner<>(gap, maxLength, indexStore);
    }
}
