package io.weir.streams.internals.dedup;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.Window;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Drops repeats: a record passes unless a record with the same key and id passed before it (in
 * processing order) with an event time at most {@code within} from its own; a repeat is dropped and
 * counted ({@value WeirMetrics#DUPLICATES_DROPPED}). The records that passed are kept in a store
 * until the watermark reaches their event time plus {@code within} plus the allowed lateness
 * ({@link ExpiryIndex}), and a record the watermark has reached (less the allowed lateness) is late:
 * a repeat of it may have been forgotten, so it is refused through {@link LateDataOutput} (counted,
 * and written to the late-data topic when there is one) instead of being judged. Those two rules
 * together make the judgement exact: every record judged sees every earlier record that could make it
 * a repeat. The store is changelogged, so after a crash the records a crash-free run would drop are
 * dropped.
 *
 * <p>A record whose id is null passes, counted ({@value WeirMetrics#NULL_ID_RECORDS_PASSED}): without
 * an id it cannot be a repeat. Records with a null key, or beyond the maximum future skew, are handled
 * by its {@link EventTimeGate}.
 */
public final class DeduplicateProcessor<K, V> implements Processor<K, V> {

    /**
     * What a deduplication is built with.
     *
     * @param ids the id bytes of a record (empty to deduplicate by key alone), or null for a record
     *            without an id
     */
    public record Settings<K, V>(
            String storeName,
            String expiryStoreName,
            long within,
            long allowedLateness,
            @Nullable String lateTopic,
            Serializer<K> keySerializer,
            BiFunction<? super K, ? super V, byte @Nullable []> ids) {}

    private static final byte[] EMPTY = new byte[0];

    private final Settings<K, V> settings;
    private ProcessorContext context;
    private WriteBackCache store;
    private ExpiryIndex expiry;
    private EventTimeGate gate;
    private LateDataOutput lateOutput;
    private Counter duplicates;
    private Counter nullIds;

    public DeduplicateProcessor(Settings<K, V> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = context.stores().cache(settings.storeName());
        this.expiry = new ExpiryIndex(context.stores().cache(settings.expiryStoreName()));
        this.lateOutput = new LateDataOutput(settings.lateTopic(), context);
        this.gate = new EventTimeGate(context, lateOutput, settings.allowedLateness());
        TaskMetrics metrics = context.metrics();
        this.duplicates = metrics.counter(context.nodeName(), WeirMetrics.DUPLICATES_DROPPED);
        this.nullIds = metrics.counter(context.nodeName(), WeirMetrics.NULL_ID_RECORDS_PASSED);
        metrics.gauge(context.nodeName(), WeirMetrics.DEDUP_IDS, expiry::size);
        // Restored state may hold ids the previous owner had already forgotten by this watermark.
        forget(gate.watermark());
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        long time = record.timestamp();
        long within = settings.within();
        if (gate.closed(time)) {
            Window interval = new Window(TimeMath.minus(time, within), TimeMath.plus(TimeMath.plus(time, within), 1));
            lateOutput.late(record, List.of(interval), false, gate.watermark());
            return;
        }
        byte[] id = settings.ids().apply(record.key(), record.value());
        if (id == null) {
            nullIds.increment();
            context.forward(record);
            return;
        }
        byte[] prefix = DedupKeys.prefix(settings.keySerializer().serialize(settings.storeName(), record.key()), id);
        long last = TimeMath.plus(time, within);
        // Every entry of this key and id within [time - within, time + within]: one bounded range.
        byte[] to = last == Long.MAX_VALUE ? Bytes.prefixEnd(prefix) : DedupKeys.at(prefix, last + 1);
        try (KeyValueIterator earlier = store.range(DedupKeys.at(prefix, TimeMath.minus(time, within)), to)) {
            if (earlier.hasNext()) {
                duplicates.increment();
                return;
            }
        }
        byte[] entry = DedupKeys.at(prefix, time);
        store.put(entry, EMPTY);
        expiry.add(TimeMath.plus(TimeMath.plus(time, within), settings.allowedLateness()), entry);
        context.forward(record);
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (gate.advance(newWatermark)) {
            forget(newWatermark);
        }
    }

    private void forget(long through) {
        expiry.expire(through, store::delete);
    }
}
