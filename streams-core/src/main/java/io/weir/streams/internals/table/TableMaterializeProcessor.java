package io.weir.streams.internals.table;

import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.WriteBackCache;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Materializes a derived table (a {@code filter} or {@code mapValues} given a {@code Materialized}):
 * each change's new value is the key's row, a change without one deletes it. The store has a
 * changelog of its own, since it holds what no topic holds. What goes downstream is the store's own
 * change (its row before and after), through the {@link ChangeEmitter}: by default the last per key
 * at each commit, so a derived table coalesces like any other. A time-to-live works as for other
 * tables ({@link RowExpiry}).
 */
public final class TableMaterializeProcessor<K, V> implements Processor<K, Change<V>> {

    private final String storeName;
    private final Serializer<K> keySerializer;
    private final Serde<K> keySerde;
    private final TableRowCodec<V> codec;
    private final boolean emitEveryChange;
    private final @Nullable TimeToLive timeToLive;
    private WriteBackCache store;
    private ChangeEmitter<K, V> changes;
    private RowExpiry<K, V> expiry;

    public TableMaterializeProcessor(
            String storeName,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            boolean emitEveryChange,
            @Nullable TimeToLive timeToLive) {
        this.storeName = storeName;
        this.keySerde = keySerde;
        this.keySerializer = keySerde.serializer();
        this.codec = new TableRowCodec<>(storeName, valueSerde);
        this.emitEveryChange = emitEveryChange;
        this.timeToLive = timeToLive;
    }

    @Override
    public void init(ProcessorContext context) {
        this.store = context.stores().cache(storeName);
        this.changes = new ChangeEmitter<>(context, RowFormat.of(codec), emitEveryChange);
        this.expiry = RowExpiry.of(timeToLive, context, store, keySerde.deserializer(), changes);
    }

    @Override
    public void process(Record<K, Change<V>> record) {
        byte[] keyBytes = keySerializer.serialize(storeName, record.key());
        byte[] oldStored = expiry.live(keyBytes, store.get(keyBytes));
        V value = record.value().newValue();
        long time = TableRowCodec.timeReplacing(record.timestamp(), oldStored);
        byte[] stored = value == null ? null : codec.encode(new TableRow<>(value, time, -1, expiry.updatedAt()));
        if (oldStored == null && stored == null) {
            return;
        }
        store.put(keyBytes, stored);
        changes.changed(record.key(), keyBytes, oldStored, stored, record.timestamp());
        expiry.changed(keyBytes, oldStored, stored);
    }

    @Override
    public void beforeCommit() {
        expiry.advance();
        changes.beforeCommit();
    }
}
