package io.weir.streams.internals.testdriver;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.topology.KeyValueView;

/**
 * Reads the rows of a queryable key-value store's copies for the TestDriver, as queries read them:
 * keys through the store's key serde, values through its row format (a table row, a join's two input
 * rows, a processor's serialized value), so a test needs no serdes to look inside.
 */
public final class StoreRows {

    private StoreRows() {}

    /** Takes one row: its key, value and event time (-1 in a store that keeps none). */
    @FunctionalInterface
    public interface RowAction<K, V> {
        void accept(K key, V value, long timestamp);
    }

    /** Calls {@code action} for every row of {@code copy} that has a value, committed or not. */
    public static <K, V> void read(WriteBackCache copy, KeyValueView<K, V> view, RowAction<K, V> action) {
        RowFormat<K, V> format = view.rows().get();
        try (KeyValueIterator it = copy.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                K key = view.key(e.key());
                V value = format.value(key, e.value());
                if (value != null) {
                    long time = view.timestamped() ? format.timestamp(e.value()) : -1;
                    action.accept(key, value, time);
                }
            }
        }
    }
}
