package io.weir.streams.dsl;

import java.util.function.Supplier;

/** A stream grouped by key, ready to be windowed and aggregated, or handled by a keyed processor. */
public interface GroupedStream<K, V> {

    /** Aggregate per key and per window of {@code windows}. */
    WindowedStream<K, V> windowedBy(Windows windows);

    /**
     * Runs a {@link KeyedProcessor} over the stream, one instance per task, with the key-value stores
     * {@code stores} (each named with {@code Materialized.as(name)}, with key and value serdes) and
     * per-key timers, which Weir keeps in a logged store of its own. The result is a stream whose serdes
     * are unknown: give them when writing it ({@code to(topic, Produced.with(...))}).
     *
     * @throws IllegalStateException at build time if a store has no name or serdes, or a name is taken
     */
    <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Materialized<?, ?>... stores);

    /**
     * {@link #process(Supplier, Materialized[])} as the operator {@code named}: its timer store is then
     * {@code <name>-timers} whatever else changes in the topology, so a restarted or upgraded application
     * keeps its timers.
     */
    <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Named named, Materialized<?, ?>... stores);
}
