package io.weir.streams.dsl;

/** A stream grouped by key, ready to be windowed and aggregated. */
public interface GroupedStream<K, V> {

    /** Aggregate per key and per window of {@code windows}. */
    WindowedStream<K, V> windowedBy(Windows windows);
}
