package io.weir.streams.internals.table;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.window.MergedSessions;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * A windowed aggregation's results as a table keyed by (key, window): the upsert view of its panes
 * ({@code WindowedTable.toTable()}). Each pane, early, on time or late, sets its window's row to the
 * pane's value, stamped with the pane's time; a pane's retraction changes nothing here, since every
 * table change carries the old value it replaces. A session that a merge absorbed, or that grew into
 * a longer one, is deleted when the session that replaces it emits: its row is a tombstone downstream,
 * so an upsert or compacted sink, or an aggregation of the table, forgets it.
 *
 * <p>A row lives as long as its window can still change: once the watermark closes the window (its end
 * plus the allowed lateness), the row leaves the store without a change downstream, as a Kafka Streams
 * window store drops a window at its retention. A global window's row stays. Changes go downstream
 * through the {@link ChangeEmitter}: by default the last per key at each commit. Single-threaded, like its
 * task.
 */
public final class WindowRowsProcessor<K, V> implements Processor<Windowed<K>, V> {

    /**
     * What the table is built with.
     *
     * @param store           the rows, keyed by the windowed key's serialized bytes
     * @param closeStore      when each row's window closes ({@link ExpiryIndex})
     * @param mergeLog        for session windows, the log of the sessions the aggregation merged away
     *                        ({@link MergedSessions}); null for others
     * @param aggregateStore  the aggregation's store, whose name its keys were serialized with
     * @param allowedLateness how long after its end a window still changes
     */
    public record Settings<K, V>(
            String store,
            String closeStore,
            @Nullable String mergeLog,
            String aggregateStore,
            long allowedLateness,
            Serde<K> keySerde,
            Serde<Windowed<K>> windowedKeySerde,
            Serde<V> valueSerde,
            boolean emitEveryChange) {}

    private final Settings<K, V> settings;
    private final TableRowCodec<V> codec;
    private WriteBackCache rows;
    private ExpiryIndex closes;
    private @Nullable WriteBackCache merged;
    private ChangeEmitter<Windowed<K>, V> changes;
    private ProcessorContext context;
    private Serializer<Windowed<K>> keys;
    private Serializer<K> innerKeys;
    /** Rows added for windows closed already: they leave the store at the next commit. */
    private final List<byte[]> closedOnArrival = new ArrayList<>();
    /** The watermark through which closed windows' rows have left the store. */
    private long purgedThrough = Long.MIN_VALUE;

    public WindowRowsProcessor(Settings<K, V> settings) {
        this.settings = settings;
        this.codec = new TableRowCodec<>(settings.store(), settings.valueSerde());
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.rows = context.stores().cache(settings.store());
        this.closes = new ExpiryIndex(context.stores().cache(settings.closeStore()));
        String mergeLog = settings.mergeLog();
        this.merged = mergeLog == null ? null : context.stores().cache(mergeLog);
        this.changes = new ChangeEmitter<>(context, RowFormat.of(codec), settings.emitEveryChange());
        this.keys = settings.windowedKeySerde().serializer();
        this.innerKeys = settings.keySerde().serializer();
    }

    @Override
    public void process(Record<Windowed<K>, V> record) {
        Windowed<K> key = record.key();
        if (key == null
                || PaneInfo.from(record.headers()).map(PaneInfo::isRetraction).orElse(false)) {
            return;
        }
        if (merged != null) {
            deleteMerged(key, record.timestamp());
        }
        V value = record.value();
        set(
                key,
                value == null ? null : codec.encode(new TableRow<>(value, record.timestamp(), -1, Long.MIN_VALUE)),
                record.timestamp());
    }

    /** Sets the row of {@code key} to {@code stored} (null: deletes it), a change caused at {@code time}. */
    private void set(Windowed<K> key, byte @Nullable [] stored, long time) {
        byte[] keyBytes = keys.serialize(settings.store(), key);
        byte[] old = rows.get(keyBytes);
        if (old == null && stored == null) {
            return;
        }
        rows.put(keyBytes, stored);
        changes.changed(key, keyBytes, old, stored, time);
        long close = closeTime(key.window());
        if (close == Long.MAX_VALUE) {
            return;
        }
        // Purges only move forward: a row's window that had not closed when the row was added was indexed
        // at its close time, and is still there while that time is ahead of the purges.
        boolean open = close > purgedThrough;
        if (old == null && open) {
            closes.add(close, keyBytes);
        } else if (old == null) {
            // A pane of a window closed already (restored state a previous owner had closed).
            closedOnArrival.add(keyBytes);
        } else if (stored == null && open) {
            closes.remove(close, keyBytes);
        }
    }

    /**
     * Deletes the rows of the sessions that {@code key}'s session absorbed: the merge log's entries of its
     * key that start within it. A session absorbed by one that was absorbed in turn is deleted when the last
     * one emits, which lies around both.
     */
    private void deleteMerged(Windowed<K> key, long time) {
        WriteBackCache log = merged;
        if (log == null) {
            return;
        }
        byte[] inner = innerKeys.serialize(settings.aggregateStore(), key.key());
        Window window = key.window();
        List<byte[]> entries = new ArrayList<>();
        try (KeyValueIterator it =
                log.range(MergedSessions.from(inner, window.start()), MergedSessions.from(inner, window.end()))) {
            while (it.hasNext()) {
                entries.add(it.next().key());
            }
        }
        for (byte[] entry : entries) {
            log.delete(entry);
            set(new Windowed<>(key.key(), MergedSessions.window(entry)), null, time);
        }
    }

    /** The watermark from which {@code window} no longer changes: the window operator's own close time. */
    private long closeTime(Window window) {
        return TimeMath.plus(window.maxTimestamp(), settings.allowedLateness());
    }

    @Override
    public void beforeCommit() {
        changes.beforeCommit();
        // After the changes went out: a row that closes leaves the store without a change downstream.
        closedOnArrival.forEach(rows::delete);
        closedOnArrival.clear();
        long watermark = context.watermark();
        if (watermark == Long.MIN_VALUE || watermark <= purgedThrough) {
            return;
        }
        closes.expire(watermark, rows::delete);
        WriteBackCache log = merged;
        if (log != null) {
            // Entries wait for the session that absorbed them to emit, which it does by its close at the
            // latest under the triggers that fire then; one whose own window closed is of no more use.
            // The log holds only merges not yet emitted, so this scan stays short.
            List<byte[]> closed = new ArrayList<>();
            try (KeyValueIterator it = log.range(null, null)) {
                while (it.hasNext()) {
                    byte[] entry = it.next().key();
                    if (closeTime(MergedSessions.window(entry)) <= watermark) {
                        closed.add(entry);
                    }
                }
            }
            closed.forEach(log::delete);
        }
        purgedThrough = watermark;
    }
}
