package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends a materialized table's changes downstream, for every table operator with a store: either each
 * change as it happens, or (the default) the last value per key at each commit, from the value the
 * key had at the commit before. The write-back cache holds the rows between commits, so a key updated
 * a thousand times between two commits costs one change downstream; a key whose value ends a commit
 * where it started emits nothing, and neither does a change that leaves a value as it was.
 *
 * <p>Why both the committed row and the latest are remembered here rather than read back: the operator
 * reports each change with the rows it has just read and written, so the store is not read at commit (a
 * lookup per changed key in a cache of hundreds of thousands of rows cost 6% of Nexmark q16's time). So an
 * operator reports every write of its store here. Between commits this holds one entry per changed key,
 * as the cache does. Single-threaded, like its task.
 */
public final class ChangeEmitter<K, V> {

    private final ProcessorContext context;
    private final RowFormat<K, V> rows;
    private final boolean everyChange;
    private final Counter emitted;
    /** Keys changed since the last commit: the key, its stored row at the last commit and now (null: absent). */
    private final Map<ByteBuffer, Pending<K>> pending = new LinkedHashMap<>();

    private static final class Pending<K> {
        final K key;
        final byte @Nullable [] committed;
        byte @Nullable [] latest;
        long timestamp;

        Pending(K key, byte @Nullable [] committed, byte @Nullable [] latest, long timestamp) {
            this.key = key;
            this.committed = committed;
            this.latest = latest;
            this.timestamp = timestamp;
        }
    }

    /**
     * @param everyChange whether each change is emitted when it happens ({@code
     *     Materialized.withEmitEveryChange()}); else the last per key at each commit
     */
    public ChangeEmitter(ProcessorContext context, RowFormat<K, V> rows, boolean everyChange) {
        this.context = context;
        this.rows = rows;
        this.everyChange = everyChange;
        this.emitted = context.metrics().counter(context.nodeName(), WeirMetrics.TABLE_CHANGES_EMITTED);
    }

    /**
     * The row of {@code key} went from {@code oldStored} to {@code newStored} (as stored, null meaning
     * absent) because of a change at event time {@code timestamp}; the operator has written the store.
     *
     * <p>The change goes downstream stamped with the largest of that time and the times of the rows it
     * replaces and writes (and, coalesced, of every change of the key since the last commit): a key's change
     * is never stamped earlier than the change that caused it or the row it replaces, so a versioned table
     * or a time-ordered reader downstream never keeps a row that a later change deleted.
     */
    public void changed(
            K key, byte[] keyBytes, byte @Nullable [] oldStored, byte @Nullable [] newStored, long timestamp) {
        long time = Math.max(timestamp, Math.max(timeOf(oldStored), timeOf(newStored)));
        if (everyChange) {
            if (!rows.sameValue(key, oldStored, newStored)) {
                emit(key, value(key, oldStored), value(key, newStored), time);
            }
            return;
        }
        Pending<K> p = pending.get(ByteBuffer.wrap(keyBytes));
        if (p == null) {
            pending.put(ByteBuffer.wrap(keyBytes), new Pending<>(key, oldStored, newStored, time));
        } else {
            p.latest = newStored;
            p.timestamp = Math.max(p.timestamp, time);
        }
    }

    private long timeOf(byte @Nullable [] stored) {
        return stored == null ? Long.MIN_VALUE : rows.timestamp(stored);
    }

    private @Nullable V value(K key, byte @Nullable [] stored) {
        return stored == null ? null : rows.value(key, stored);
    }

    /** The task is about to commit: each key changed since the last commit emits its last value, if it differs. */
    public void beforeCommit() {
        if (pending.isEmpty()) {
            return;
        }
        for (Map.Entry<ByteBuffer, Pending<K>> e : pending.entrySet()) {
            Pending<K> p = e.getValue();
            if (rows.sameValue(p.key, p.latest, p.committed)) {
                continue;
            }
            emit(p.key, value(p.key, p.committed), value(p.key, p.latest), p.timestamp);
        }
        pending.clear();
    }

    private void emit(K key, @Nullable V oldValue, @Nullable V newValue, long timestamp) {
        if (oldValue == null && newValue == null) {
            return;
        }
        emitted.increment();
        context.forward(new Record<>(key, new Change<>(oldValue, newValue), timestamp, null, null));
    }
}
