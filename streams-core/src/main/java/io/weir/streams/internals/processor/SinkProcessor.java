package io.weir.streams.internals.processor;

import io.weir.streams.ProductionError;
import io.weir.streams.ProductionErrorHandler;
import io.weir.streams.WeirMetrics;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes records to a topic: serialized with the sink's serdes, partitioned by key bytes. A record
 * whose key or value does not serialize, or that the collector refuses as too large before sending
 * it, goes to the sink's {@link ProductionErrorHandler}; any other failure propagates.
 */
public final class SinkProcessor<K, V> implements Processor<K, V> {

    private final String topic;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private final ProductionErrorHandler handler;
    private RecordCollector collector;
    private ErrorOutcome errors;

    public SinkProcessor(
            String topic, Serializer<K> keySerializer, Serializer<V> valueSerializer, ProductionErrorHandler handler) {
        this.topic = topic;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
        this.handler = handler;
    }

    @Override
    public void init(ProcessorContext context) {
        this.collector = context.collector();
        this.errors = new ErrorOutcome(
                context.nodeName(), collector, context.metrics(), WeirMetrics.RECORDS_PRODUCTION_SKIPPED);
    }

    @Override
    public void process(Record<K, V> record) {
        byte[] key;
        byte[] value;
        try {
            key = keySerializer.serialize(topic, record.headers(), record.key());
        } catch (RuntimeException e) {
            failed(record, ProductionError.Reason.KEY_SERIALIZATION, e);
            return;
        }
        try {
            value = valueSerializer.serialize(topic, record.headers(), record.value());
        } catch (RuntimeException e) {
            failed(record, ProductionError.Reason.VALUE_SERIALIZATION, e);
            return;
        }
        try {
            collector.send(topic, null, key, value, record.headers(), record.timestamp());
        } catch (RecordTooLargeException e) {
            failed(record, ProductionError.Reason.RECORD_TOO_LARGE, e);
        }
    }

    private void failed(Record<K, V> record, ProductionError.Reason reason, RuntimeException cause) {
        SourceInfo source = record.source();
        ProductionError error = source == null
                ? new ProductionError(reason, topic, null, -1, -1, cause)
                : new ProductionError(reason, topic, source.topic(), source.partition(), source.offset(), cause);
        errors.apply(
                handler.handle(error),
                error,
                reason.name(),
                topic,
                source,
                source == null ? record.timestamp() : source.kafkaTimestamp());
    }
}
