package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.KeyValue;

import java.util.List;

/**
 * A query's results computed directly from its input, by brute force: what either engine's output must
 * come to.
 *
 * @param <K> the output's key type
 * @param <V> the output's value type
 */
@FunctionalInterface
public interface Reference<K, V> {

    /**
     * The results of {@code events}, in the order they were generated.
     *
     * @param events    every input event
     * @param watermark the event time up to which windows have closed once the input is consumed (the
     *                  largest event time less the out-of-order bound): windowed queries include only the
     *                  windows that end at or before it
     * @return the results: every output record (append) or the final row of every key (upsert)
     */
    List<KeyValue<K, V>> results(List<Event> events, long watermark);
}
