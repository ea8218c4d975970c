package io.weir.streams.dsl;

/** The results of a windowed aggregation: per key and window, a value refined pane by pane. */
public interface WindowedTable<K, V> {

    /**
     * The panes as a stream keyed by {@link Windowed} key, each record stamped with its window's last
     * instant ({@code end - 1}) and carrying {@link PaneInfo} headers. With the default trigger and
     * accumulating results, a downstream store keeps the latest value per (key, window).
     */
    EventStream<Windowed<K>, V> toStream();
}
