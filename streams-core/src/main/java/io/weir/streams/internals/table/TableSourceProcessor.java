package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.Window;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * A table read from a topic ({@code StreamsBuilder.table}): each record with a value sets its key's row,
 * each tombstone deletes it. The store holds what {@link SourceRows} says, so that it restores from the
 * topic itself. A record with a null key is counted and skipped; a tombstone for a key the table does
 * not hold changes nothing and is counted ({@value WeirMetrics#TOMBSTONES_FOR_ABSENT_KEYS}). The last
 * record by offset wins, whatever its event time. With a time-to-live, a {@link RowExpiry} deletes rows
 * not changed for it; the store then has a changelog of its own, since it no longer holds what the
 * topic holds. A versioned table keeps its versions by event time ({@link TableVersions}), also with a
 * changelog of its own.
 */
public final class TableSourceProcessor<K, V> implements Processor<K, V> {

    private final String storeName;
    private final SourceRows<K, V> rows;
    private final TableRowCodec<V> codec;
    private final boolean emitEveryChange;
    private final Consumed<K, V> consumed;
    private final @Nullable TimeToLive timeToLive;
    private ProcessorContext context;
    private WriteBackCache store;
    private EventTimeGate gate;
    private ChangeEmitter<K, V> changes;
    private Counter absentTombstones;

    private RowExpiry<K, V> expiry;
    private final @Nullable Versioning versioning;
    private @Nullable TableVersions versions;
    private LateDataOutput late;

    /**
     * A versioned table's settings: its history retention and stores, and its source node, whose
     * watermark (not the task's, which leaves tables out when streams are read beside them) judges
     * the retention.
     */
    public record Versioning(long historyRetention, String historyStore, String expiryStore, String sourceNode) {}

    public TableSourceProcessor(
            String storeName,
            Consumed<K, V> consumed,
            boolean emitEveryChange,
            @Nullable TimeToLive timeToLive,
            @Nullable Versioning versioning) {
        this.versioning = versioning;
        this.storeName = storeName;
        this.consumed = consumed;
        this.rows = new SourceRows<>(consumed);
        this.codec = new TableRowCodec<>(storeName, consumed.valueSerde());
        this.emitEveryChange = emitEveryChange;
        this.timeToLive = timeToLive;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = context.stores().cache(storeName);
        this.late = new LateDataOutput(null, context);
        this.gate = new EventTimeGate(context, late);
        this.changes = new ChangeEmitter<>(context, RowFormat.of(codec), emitEveryChange);
        this.absentTombstones = context.metrics().counter(context.nodeName(), WeirMetrics.TOMBSTONES_FOR_ABSENT_KEYS);
        expiry = RowExpiry.of(timeToLive, context, store, consumed.keySerde().deserializer(), changes);
        if (versioning != null) {
            versions = new TableVersions(
                    store,
                    context.stores().cache(versioning.historyStore()),
                    context.stores().cache(versioning.expiryStore()),
                    versioning.historyRetention());
            versions.advance(tableWatermark());
        }
    }

    private long tableWatermark() {
        return context.sourceWatermark(Objects.requireNonNull(versioning).sourceNode());
    }

    @Override
    public void onWatermark(long watermark) {
        gate.advance(watermark);
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        SourceInfo source = record.source();
        String topic = source == null ? storeName : source.topic();
        byte[] keyBytes = rows.keyBytes(topic, record.key(), source == null ? null : source.rawKey());
        byte[] oldStored = expiry.live(keyBytes, store.get(keyBytes));
        // A row's time is the largest of the changes that made it, so an update older than the row it
        // replaces keeps the row's time (a versioned table keeps each version's own instead). A restore
        // from the topic gives each row its record's time again.
        long time = versions != null ? record.timestamp() : TableRowCodec.timeReplacing(record.timestamp(), oldStored);
        byte[] stored = record.value() == null
                ? null
                : rows.row(topic, record.value(), source == null ? null : source.rawValue(), time, expiry.updatedAt());
        if (versions != null) {
            putVersion(record, keyBytes, oldStored, stored);
            return;
        }
        if (stored == null && oldStored == null) {
            absentTombstones.increment();
            return;
        }
        store.put(keyBytes, stored);
        changes.changed(record.key(), keyBytes, oldStored, stored, record.timestamp());
        expiry.changed(keyBytes, oldStored, stored);
    }

    /**
     * A versioned table's update: the latest version by event time changes downstream; an older one goes
     * into history silently; one already the retention behind the watermark is refused as late.
     */
    private void putVersion(
            Record<K, V> record, byte[] keyBytes, byte @Nullable [] oldStored, byte @Nullable [] stored) {
        long time = record.timestamp();
        long watermark = tableWatermark();
        if (stored == null && (oldStored == null || TableRowCodec.isDelete(oldStored))) {
            absentTombstones.increment();
        }
        byte[] version = stored != null ? stored : TableRowCodec.encode(null, time, -1, Long.MIN_VALUE);
        TableVersions.Outcome outcome = Objects.requireNonNull(versions).put(keyBytes, version, time, watermark);
        if (outcome == TableVersions.Outcome.TOO_OLD) {
            late.late(record, List.of(new Window(time, TimeMath.plus(time, 1))), false, watermark);
        } else if (outcome == TableVersions.Outcome.LATEST) {
            changes.changed(record.key(), keyBytes, oldStored, version, time);
        }
    }

    @Override
    public void beforeCommit() {
        expiry.advance();
        if (versions != null) {
            versions.advance(tableWatermark());
        }
        changes.beforeCommit();
    }
}
