package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
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
 * reads only the expired rows, never the whole store.
 *
 * <p>Expired rows are purged before each commit, one index scan per commit rather than per watermark
 * advance: the deletes go downstream at that commit, when a table's changes go anyway. In between, a
 * change to a row that has expired finds it gone ({@link #live}), so what a table computes never
 * depends on when the purge ran. A row whose change already puts it past its expiry (an update far
 * behind the watermark) is deleted at once. Single-threaded, like its task.
 */
public final class RowExpiry<K, V> {

    private final ProcessorContext context;
    private final WriteBackCache store;
    /** Null for a table without a time-to-live: then nothing expires. */
    private final @Nullable ExpiryIndex index;

    private final long ttl;
    private final boolean eventTime;
    private final Deserializer<K> keys;
    private final ChangeEmitter<K, V> changes;
    private final Counter expired;

    private RowExpiry(
            ProcessorContext context,
            WriteBackCache store,
            @Nullable TimeToLive timeToLive,
            Deserializer<K> keys,
            ChangeEmitter<K, V> changes) {
        this.context = context;
        this.store = store;
        this.index =
                timeToLive == null ? null : new ExpiryIndex(context.stores().cache(timeToLive.indexStore()));
        this.ttl = timeToLive == null ? 0 : timeToLive.ttl();
        this.eventTime = timeToLive == null || timeToLive.domain() == TimeDomain.EVENT_TIME;
        this.keys = keys;
        this.changes = changes;
        this.expired = context.metrics().counter(context.nodeName(), WeirMetrics.ROWS_EXPIRED);
    }

    /**
     * The expiry of a table's rows under {@code timeToLive} (null: the table has none, and nothing
     * expires), having deleted what expired by now (restored rows a previous owner would have expired).
     */
    public static <K, V> RowExpiry<K, V> of(
            @Nullable TimeToLive timeToLive,
            ProcessorContext context,
            WriteBackCache store,
            Deserializer<K> keys,
            ChangeEmitter<K, V> changes) {
        RowExpiry<K, V> expiry = new RowExpiry<>(context, store, timeToLive, keys, changes);
        expiry.advance();
        return expiry;
    }

    /** The processing time to keep with a changed row: now for a processing-time TTL, else none. */
    public long updatedAt() {
        return index == null || eventTime ? Long.MIN_VALUE : context.processingTime();
    }

    /** The row under {@code key} went from {@code oldStored} to {@code newStored} (null: absent), both stored. */
    public void changed(byte[] key, byte @Nullable [] oldStored, byte @Nullable [] newStored) {
        ExpiryIndex index = this.index;
        if (index == null) {
            return;
        }
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

    /**
     * The row of {@code key} as stored, or null when it has expired by now (then it is deleted here, as
     * a change): a change to an expired row finds it gone, even before the commit purges it.
     */
    public byte @Nullable [] live(byte[] key, byte @Nullable [] stored) {
        ExpiryIndex index = this.index;
        if (index == null || stored == null) {
            return stored;
        }
        long expiry = expiry(stored);
        if (expiry > now()) {
            return stored;
        }
        index.remove(expiry, key);
        expire(key);
        return null;
    }

    /** Deletes every row whose expiry time has reached; called before each commit. */
    public void advance() {
        if (index != null) {
            index.expire(now(), this::expire);
        }
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
