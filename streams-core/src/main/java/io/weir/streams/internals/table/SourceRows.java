package io.weir.streams.internals.table;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.time.TimestampExtractor;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * What a source table's store holds for a record of its topic, decided in one place for processing and
 * for restore, so a store restored from the topic holds exactly what processing had put in it: the
 * record's key bytes as read, and its value bytes as read in a {@link TableRowCodec} row stamped with
 * the record's event time; a null value deletes. A record processing skips (its key or value does not
 * deserialize, its key is null, its event time cannot be read) is skipped on restore too: restore only
 * reads records below the committed offset, which processing took in or skipped by its handler's decision.
 */
public final class SourceRows<K, V> {

    private final Deserializer<K> keyDeserializer;
    private final Serializer<K> keySerializer;
    private final Deserializer<V> valueDeserializer;
    private final Serializer<V> valueSerializer;
    private final TimestampExtractor<K, V> extractor;

    @SuppressWarnings("unchecked")
    public SourceRows(Consumed<?, ?> consumed) {
        Consumed<K, V> c = (Consumed<K, V>) consumed;
        this.keyDeserializer = c.keySerde().deserializer();
        this.keySerializer = c.keySerde().serializer();
        this.valueDeserializer = c.valueSerde().deserializer();
        this.valueSerializer = c.valueSerde().serializer();
        this.extractor = c.timestampExtractor();
    }

    /** The key bytes a row is stored under: the record's, or the key serialized when the record had none. */
    byte[] keyBytes(String topic, K key, byte @Nullable [] raw) {
        return raw != null ? raw : keySerializer.serialize(topic, key);
    }

    /**
     * The stored row for a record with a value (the value's bytes as read, or serialized when it had
     * none), with the processing time of the change when a time-to-live needs it ({@code Long.MIN_VALUE}: not kept).
     */
    byte[] row(String topic, V value, byte @Nullable [] raw, long eventTime, long updatedAt) {
        return TableRowCodec.encode(
                raw != null ? raw : valueSerializer.serialize(topic, value), eventTime, -1, updatedAt);
    }

    /**
     * The store write for a record read back from the topic on restore: the row, a delete (a put of
     * null), or null when processing skipped the record.
     */
    public StoreBatch.@Nullable Put restored(
            String topic, Headers headers, byte @Nullable [] key, byte @Nullable [] value, long timestamp) {
        K k;
        V v;
        long eventTime;
        try {
            k = keyDeserializer.deserialize(topic, headers, key);
            v = valueDeserializer.deserialize(topic, headers, value);
            eventTime = extractor.extract(k, v, timestamp);
        } catch (RuntimeException e) {
            return null;
        }
        if (k == null || eventTime < 0) {
            return null;
        }
        byte[] keyBytes = keyBytes(topic, k, key);
        return new StoreBatch.Put(keyBytes, v == null ? null : row(topic, v, value, eventTime, Long.MIN_VALUE));
    }
}
