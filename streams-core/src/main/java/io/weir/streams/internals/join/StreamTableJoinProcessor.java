package io.weir.streams.internals.join;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Joined;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.operator.TimeOrderedBuffer;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.table.TableLookup;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A stream joined with a table of the same task, inner or left, in one of {@link Joined.Mode}'s modes
 * (their contract is on {@link Joined}); {@link LookupResults} says what a record with a null key or no
 * row gives.
 *
 * <p>Aligned: a record the table's watermark has not reached waits in a {@link TimeOrderedBuffer} (a
 * changelogged store), released in event-time order at the end of each batch in which the table's
 * watermark passed it, or as soon as the table's partition is idle; at the end of a bounded input
 * everything is released. A record the table's watermark has reached joins at once: the table already
 * holds every version up to its time. The history it needs is never purged while it waits: a versioned
 * table purges by its own watermark minus the retention, at commits, and a record waits only while that
 * watermark is below its time.
 */
public final class StreamTableJoinProcessor<K, V, TV, VR> implements Processor<K, V> {

    /**
     * What a stream–table join is built with.
     *
     * @param bufferStore the aligned join's buffer, else null
     * @param codec       how the aligned join stores a waiting record, else null
     */
    public record Settings<K, V, TV, VR>(
            Joined.Mode mode,
            boolean left,
            TableLookup<K, TV> table,
            BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner,
            @Nullable String bufferStore,
            @Nullable BufferedRecordCodec<K, V> codec,
            @Nullable String lateTopic) {}

    private final Settings<K, V, TV, VR> settings;
    private ProcessorContext context;
    private TableLookup<K, TV>.Reader table;
    private LookupResults<K, V, TV, VR> results;
    private LateDataOutput late;
    private @Nullable TimeOrderedBuffer buffer;

    public StreamTableJoinProcessor(Settings<K, V, TV, VR> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.table = settings.table().open(context);
        this.results = new LookupResults<>(context, settings.joiner(), settings.left());
        this.late = new LateDataOutput(settings.lateTopic(), context);
        String bufferStore = settings.bufferStore();
        if (bufferStore != null) {
            TimeOrderedBuffer held = new TimeOrderedBuffer(context.stores().cache(bufferStore));
            buffer = held;
            context.metrics().gauge(context.nodeName(), WeirMetrics.JOIN_BUFFERED_RECORDS, held::size);
        }
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        if (key == null) {
            results.nullKey(record);
            return;
        }
        if (settings.mode() == Joined.Mode.LATEST) {
            results.found(record, table.latest(key));
            return;
        }
        TableLookup.History history = Objects.requireNonNull(settings.table().history());
        long tableWatermark = context.sourceWatermark(history.sourceNode());
        if (record.beyondFutureSkew()) {
            late.future(record, tableWatermark);
            return;
        }
        long time = record.timestamp();
        if (tableWatermark != Long.MIN_VALUE && TimeMath.plus(time, history.retention()) <= tableWatermark) {
            late.beforeTableHistory(record, tableWatermark);
            return;
        }
        TimeOrderedBuffer held = buffer;
        if (held == null || time <= tableWatermark || context.sourceIdle(history.sourceNode())) {
            results.found(record, table.asOf(key, time));
            return;
        }
        held.add(time, Objects.requireNonNull(settings.codec()).encode(key, record.value(), record.headers()));
    }

    @Override
    public void onBatchEnd() {
        release(false);
    }

    @Override
    public void onProcessingTime(long now) {
        release(false);
    }

    @Override
    public void onWatermark(long watermark) {
        // Long.MAX_VALUE: the input is complete, nothing is left to wait for.
        if (watermark == Long.MAX_VALUE) {
            release(true);
        }
    }

    /** Joins the waiting records the table's watermark has reached (all of them while it is idle, or at the end). */
    private void release(boolean all) {
        TimeOrderedBuffer held = buffer;
        if (held == null || held.size() == 0) {
            return;
        }
        String source = Objects.requireNonNull(settings.table().history()).sourceNode();
        long through = all || context.sourceIdle(source) ? Long.MAX_VALUE : context.sourceWatermark(source);
        BufferedRecordCodec<K, V> codec = Objects.requireNonNull(settings.codec());
        held.release(through, (time, stored) -> {
            BufferedRecordCodec.Decoded<K, V> waiting = codec.decode(stored);
            K key = Objects.requireNonNull(waiting.key());
            @SuppressWarnings("NullAway") // the stream's value type holds what the record held
            Record<K, V> record = new Record<>(key, waiting.value(), time, waiting.headers(), null);
            results.found(record, table.asOf(key, time));
        });
    }
}
