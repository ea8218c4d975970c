package io.weir.streams.internals.join;

import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.table.ChangeEmitter;
import io.weir.streams.internals.table.RowFormat;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;

/**
 * The result table of a join that gives a table: its store of {@link JoinedRows} (only rows that stand
 * for a result are kept, so the store holds the result's keys and no more) and its {@link ChangeEmitter},
 * so every change carries the exact old result, by default the last per key at each commit. Shared by
 * the table–table and foreign-key joins. Single-threaded, like its task.
 */
final class JoinResults<K, VR> {

    private final String storeName;
    private final WriteBackCache store;
    private final Serializer<K> keys;
    private final RowFormat<K, VR> rows;
    private final ChangeEmitter<K, VR> changes;

    JoinResults(
            ProcessorContext context,
            String storeName,
            Serializer<K> keys,
            RowFormat<K, VR> rows,
            boolean emitEveryChange) {
        this.storeName = storeName;
        this.store = context.stores().cache(storeName);
        this.keys = keys;
        this.rows = rows;
        this.changes = new ChangeEmitter<>(context, rows, emitEveryChange);
    }

    /** The stored joined row of {@code key}, or null when it has no result. */
    byte @Nullable [] get(K key) {
        return store.get(keys.serialize(storeName, key));
    }

    /**
     * Sets the result of {@code key} to what {@code joined} (the joined rows; null: none) stands for, at
     * event time {@code time}; a change when it differs from before.
     */
    void set(K key, byte @Nullable [] joined, long time) {
        byte[] result = joined != null && rows.value(key, joined) == null ? null : joined;
        byte[] keyBytes = keys.serialize(storeName, key);
        byte[] old = store.get(keyBytes);
        if (Arrays.equals(old, result)) {
            return;
        }
        store.put(keyBytes, result);
        changes.changed(key, keyBytes, old, result, time);
    }

    /** The task is about to commit: the held changes go downstream. */
    void beforeCommit() {
        changes.beforeCommit();
    }
}
