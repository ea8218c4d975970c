package io.weir.streams.internals.processor;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.StreamPartitioner;
import io.weir.streams.dsl.TopicNameExtractor;
import io.weir.streams.errors.ProductionError;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.internals.metrics.Counter;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Writes records to a topic, fixed or chosen per record by a {@link TopicNameExtractor}: serialized
 * with the sink's serdes, partitioned by key bytes or by the sink's {@link StreamPartitioner}. A record
 * whose key or value does not serialize, or that the collector refuses before sending it (too large, a
 * timestamp the topic would refuse), goes to the sink's {@link ProductionErrorHandler}; a topic extractor or partitioner that throws fails
 * as user code (the task's processing-error handling); any other failure propagates.
 */
public final class SinkProcessor<K, V> implements Processor<K, V> {

    private final TopicNameExtractor<? super K, ? super V> topics;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private final ProductionErrorHandler handler;
    private final @Nullable StreamPartitioner<? super K, ? super V> partitioner;
    private RecordCollector collector;
    private ErrorOutcome errors;
    private Counter produced;

    public SinkProcessor(
            TopicNameExtractor<? super K, ? super V> topics,
            Serializer<K> keySerializer,
            Serializer<V> valueSerializer,
            ProductionErrorHandler handler,
            @Nullable StreamPartitioner<? super K, ? super V> partitioner) {
        this.topics = topics;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
        this.handler = handler;
        this.partitioner = partitioner;
    }

    @Override
    public void init(ProcessorContext context) {
        this.collector = context.collector();
        this.errors = context.errorOutcome(WeirMetrics.RECORDS_PRODUCTION_SKIPPED);
        this.produced = context.metrics().counter(context.nodeName(), WeirMetrics.RECORDS_PRODUCED);
    }

    @Override
    public void process(Record<K, V> record) {
        String topic = topics.extract(record.key(), record.value());
        // Checked here, not with Require.name: its message is built on every call, and this runs per record.
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("A TopicNameExtractor chose no topic: '" + topic + "'");
        }
        Integer partition = null;
        if (partitioner != null) {
            int count = collector.partitionsFor(topic);
            partition = partitioner.partition(topic, record.key(), record.value(), count);
            if (partition < 0 || partition >= count) {
                throw new IllegalArgumentException("The partitioner chose partition " + partition + " of topic '"
                        + topic + "', which has partitions 0.." + (count - 1));
            }
        }
        byte[] key;
        byte[] value;
        try {
            key = keySerializer.serialize(topic, record.headers(), record.key());
        } catch (RuntimeException e) {
            failed(record, topic, ProductionError.Reason.KEY_SERIALIZATION, e);
            return;
        }
        try {
            value = valueSerializer.serialize(topic, record.headers(), record.value());
        } catch (RuntimeException e) {
            failed(record, topic, ProductionError.Reason.VALUE_SERIALIZATION, e);
            return;
        }
        try {
            collector.send(topic, partition, key, value, record.headers(), record.timestamp());
            produced.increment();
        } catch (RecordTooLargeException e) {
            failed(record, topic, ProductionError.Reason.RECORD_TOO_LARGE, e);
        } catch (InvalidTimestampException e) {
            failed(record, topic, ProductionError.Reason.TIMESTAMP_OUT_OF_RANGE, e);
        }
    }

    private void failed(Record<K, V> record, String topic, ProductionError.Reason reason, RuntimeException cause) {
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
