package io.weir.streams.internals.table;

import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.WriteBackCache;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * A non-windowed aggregation, of a stream or of a re-keyed table, into a table: one row per key,
 * changelogged like any store. Input from a stream is added; input from a table is a {@link Change},
 * whose old value is taken back (the subtractor) before its new value is added, in one step, so a
 * change that stays in its group moves the aggregate once. The row counts the input rows it holds
 * and is deleted when the last is taken back: the table equals a relational {@code GROUP BY} of its
 * input table, where Kafka Streams keeps a count of 0. An aggregate of null deletes the row too (a
 * reduce of a stream whose reducer keeps the latest value deletes on a null value), as in Kafka Streams. The row's event time is the largest of the
 * changes that made it. A subtraction for a group without a row, which a consistent upstream never
 * sends, has nothing to take back from and is ignored.
 *
 * <p>Records with a null key, or beyond the source's maximum future skew, are counted and skipped
 * ({@link EventTimeGate}). Changes go downstream through the {@link ChangeEmitter}: by default the last
 * per key at each commit. With a time-to-live, a {@link RowExpiry} deletes rows not changed for it.
 */
public final class TableAggregateProcessor<K, V, A> implements Processor<K, Object> {

    /**
     * What a non-windowed aggregation is built with.
     *
     * @param changeInput whether the input is a table's changes (else a stream's values)
     */
    public record Settings<K, V, A>(
            TableAggregation<K, V, A> aggregation,
            boolean changeInput,
            String storeName,
            Serde<K> keySerde,
            Serde<A> aggSerde,
            boolean emitEveryChange,
            @Nullable TimeToLive timeToLive) {}

    private final Settings<K, V, A> settings;
    private final Serializer<K> keySerializer;
    private final TableRowCodec<A> codec;
    private WriteBackCache store;
    private EventTimeGate gate;
    private ChangeEmitter<K, A> changes;
    private RowExpiry<K, A> expiry;

    public TableAggregateProcessor(Settings<K, V, A> settings) {
        this.settings = settings;
        this.keySerializer = settings.keySerde().serializer();
        this.codec = new TableRowCodec<>(settings.storeName(), settings.aggSerde());
    }

    @Override
    public void init(ProcessorContext context) {
        this.store = context.stores().cache(settings.storeName());
        this.gate = new EventTimeGate(context, new LateDataOutput(null, context));
        this.changes = new ChangeEmitter<>(context, RowFormat.of(codec), settings.emitEveryChange());
        expiry = RowExpiry.of(
                settings.timeToLive(), context, store, settings.keySerde().deserializer(), changes);
    }

    @Override
    public void onWatermark(long watermark) {
        gate.advance(watermark);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void process(Record<K, Object> record) {
        if (!gate.admits(record)) {
            return;
        }
        K key = record.key();
        byte[] keyBytes = keySerializer.serialize(settings.storeName(), key);
        byte[] oldStored = expiry.live(keyBytes, store.get(keyBytes));
        TableRow<A> old = oldStored == null ? null : codec.decode(oldStored);
        TableAggregation<K, V, A> aggregation = settings.aggregation();
        A aggregate = old == null ? aggregation.adding().initial() : old.value();
        int rows = old == null ? 0 : old.rows();
        if (settings.changeInput()) {
            Change<V> change = (Change<V>) record.value();
            if (change.oldValue() != null && old != null) {
                aggregate = aggregation.subtract(key, change.oldValue(), present(aggregate));
                rows--;
            }
            if (change.newValue() != null) {
                aggregate = aggregation.adding().add(key, change.newValue(), aggregate);
                rows++;
            }
        } else {
            aggregate = aggregation.adding().add(key, (V) record.value(), aggregate);
            rows = -1;
        }
        long timestamp = old == null ? record.timestamp() : Math.max(old.timestamp(), record.timestamp());
        TableRow<A> row =
                rows == 0 || aggregate == null ? null : new TableRow<>(aggregate, timestamp, rows, expiry.updatedAt());
        byte[] stored = row == null ? null : codec.encode(row);
        store.put(keyBytes, stored);
        changes.changed(key, keyBytes, oldStored, stored, record.timestamp());
        expiry.changed(keyBytes, oldStored, stored);
    }

    /** A reduce's aggregate is null only before its first value, and then nothing is taken back. */
    private static <A> A present(@Nullable A aggregate) {
        if (aggregate == null) {
            throw new IllegalStateException("A table aggregate to subtract from is null: the aggregator returned null");
        }
        return aggregate;
    }

    @Override
    public void beforeCommit() {
        expiry.advance();
        changes.beforeCommit();
    }
}
