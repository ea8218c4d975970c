package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Deserializer;
import org.jspecify.annotations.Nullable;

/**
 * A table's time-to-live: a row not changed for {@code ttl} is deleted, with a tombstone in its
 * changelog, a delete downstream (through the table's {@link ChangeEmitter}) and a count ({@value
 * WeirMetrics#ROWS_EXPIRED}). In event time a row expires when the watermark reaches its event time
 * (the largest of its changes') plus the TTL; in processing time, when processing time reaches the
 * processing time of its last change plus the TTL. Which rows expire when is kept by an {@link
 * ExpiryIndex} in a store of its own ({@code <store>-ttl}), changelogged with the table, so a purge
 * reads only the expired rows, never the whole store. A row whose change already puts it past its
 * expiry (an update far behind the watermark) is deleted at once. Single-threaded, like its task.
 */
public final class RowExpiry<K, V> {

    private final ProcessorContext context;
    private final WriteBackCache store;
    private final ExpiryIndex index;
    private final long ttl;
    private final boolean eventTime;
    private final Deserializer<K> keys;
    private final ChangeEmitter<K, V> changes;
    private final TaskMetrics.Counter expired;

    public RowExpiry(
            ProcessorContext context,
            WriteBackCache store,
            String indexStore,
            long ttl,
            TimeDomain domain,
            Deserializer<K> keys,
            ChangeEmitter<K, V> changes) {
        this.context = context;
        this.store = store;
        this.index = new ExpiryIndex(context.stores().cache(indexStore));
        this.ttl = ttl;
        this.eventTime = domain == TimeDomain.EVENT_TIME;
        this.keys = keys;
        this.changes = changes;
        this.expired = context.metrics().counter(context.nodeName(), WeirMetrics.ROWS_EXPIRED);
    }

    /** The processing time to keep with a changed row: now for a processing-time TTL, else none. */
    public long updatedAt() {
        return eventTime ? Long.MIN_VALUE : context.processingTime();
    }

    /** The row under {@code key} went from {@code oldStored} to {@code newStored} (null: absent), both stored. */
    public void changed(byte[] key, byte @Nullable [] oldStored, byte @Nullable [] newStored) {
        if (oldStored != null) {
            index.remove(expiry(oldStored), key);
        }
        if (newStored == null) {
            return;
        }
        long expiry = expiry(newStored);
        if (expiry <= now()) {
            expire(key);
        } else {
            index.add(expiry, key);
        }
    }

    /** Time moved on: deletes every row whose expiry it reached. */
    public void advance() {
        index.expire(now(), this::expire);
    }

    private void expire(byte[] key) {
        byte[] stored = store.get(key);
        if (stored == null) {
            return;
        }
        store.delete(key);
        expired.increment();
        changes.changed(keys.deserialize(store.name(), key), key, stored, null, TableRowCodec.timestamp(stored));
    }

    private long now() {
        return eventTime ? context.watermark() : context.processingTime();
    }

    private long expiry(byte[] stored) {
        return TimeMath.plus(eventTime ? TableRowCodec.timestamp(stored) : TableRowCodec.updatedAt(stored), ttl);
    }
}
