package io.weir.streams.dsl;

import io.weir.streams.time.Windowed;

/**
 * The results of a windowed aggregation: per key and window, a value refined pane by pane; as a stream
 * of panes ({@link #toStream()}) or as a table of each window's latest value ({@link #toTable()}).
 */
public interface WindowedTable<K, V> {

    /**
     * The panes as a stream keyed by {@link Windowed} key, each record stamped with its window's last
     * instant ({@code end - 1}) and carrying {@link PaneInfo} headers. With the default trigger and
     * accumulating results, a downstream store keeps the latest value per (key, window).
     *
     * @return the stream of panes (and retractions, if refined so)
     */
    EventStream<Windowed<K>, V> toStream();

    /**
     * The results as a table keyed by (key, window): the upsert view of the panes. Each pane (early, on time
     * or late) sets its window's row to its value; a session that a merge absorbed, or that grew into a
     * longer one, is deleted when the session that replaces it emits. So the table's {@code toStream()} has
     * a tombstone for every window that disappeared, as a compacted or upsert sink needs, and {@link
     * Table#groupBy} re-aggregates the results with the previous value of each window taken back first
     * (Kafka Streams' windowed top-N pattern), however many panes a window emits.
     *
     * <p>With {@link Refinement#ACCUMULATING} or {@link Refinement#ACCUMULATING_AND_RETRACTING} panes hold a
     * window's value and the table is the same for both (its changes carry their old values anyway);
     * {@link Refinement#DISCARDING} panes hold deltas and are refused at build time. Like every table, the
     * rows' changes go downstream as the last per key at each commit unless {@link
     * Materialized#withEmitEveryChange()} is set. A row lives while its window can change: when the
     * watermark passes the window's end plus its allowed lateness it leaves the store without a change
     * downstream (a global window's row stays). The store is named {@code Materialized.as(name)} (here
     * generated) and is queryable as a key-value store of windowed keys.
     *
     * @return the table of each window's latest value
     */
    Table<Windowed<K>, V> toTable();

    /**
     * {@link #toTable()} in the store {@code materialized} names, with its store type, logging and {@code
     * withEmitEveryChange}; serdes (the aggregation's), retention, time-to-live and versioning are refused.
     *
     * @param materialized the table store's name, store type, logging and emission
     * @return the table of each window's latest value
     */
    Table<Windowed<K>, V> toTable(Materialized<Windowed<K>, V> materialized);
}
