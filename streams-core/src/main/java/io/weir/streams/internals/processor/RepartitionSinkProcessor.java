package io.weir.streams.internals.processor;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes records to a repartition topic, partitioned by their (new) key, and carries this task's
 * event time along: at the end of a batch in which the task's watermark advanced, and whenever its
 * inputs all go idle or one comes back, it writes a {@link WatermarkRecords} mark to every partition
 * of the topic. A mark follows the data it covers in each partition, so the reading side never sees a
 * watermark before the records that were on time for it.
 *
 * <p>One mark per batch, not per advance: with records in event-time order every record advances the
 * watermark, and a mark per record would send a record to every partition for each one. The reading
 * side sees the batch's records before the mark either way (under exactly-once it sees nothing of the
 * batch before the commit), so it only takes the watermark a little later, never a different result.
 */
public final class RepartitionSinkProcessor<K, V> implements Processor<K, V> {

    private final String logicalTopic;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private final boolean marks;
    private ProcessorContext context;
    private Counter produced;
    private Counter futureDropped;
    private String topic;
    private int partitions;
    private long sentWatermark = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;
    private boolean sentIdle;

    public RepartitionSinkProcessor(String logicalTopic, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(logicalTopic, keySerializer, valueSerializer, true);
    }

    /**
     * @param marks whether to write watermark marks; not for a topic of a join's messages about table rows,
     *              which its readers leave out of the watermark
     */
    public RepartitionSinkProcessor(
            String logicalTopic, Serializer<K> keySerializer, Serializer<V> valueSerializer, boolean marks) {
        this.logicalTopic = logicalTopic;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
        this.marks = marks;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.topic = InternalTopics.name(context.applicationId(), logicalTopic);
        this.partitions = context.collector().partitionsFor(topic);
        this.produced = context.metrics().counter(context.nodeName(), WeirMetrics.RECORDS_PRODUCED);
        this.futureDropped = context.metrics().counter(context.nodeName(), WeirMetrics.FUTURE_RECORDS_DROPPED);
    }

    @Override
    public void process(Record<K, V> record) {
        if (sentIdle && marks) {
            mark(watermark, false);
        }
        Headers headers = WatermarkRecords.dataHeaders(record.headers());
        if (record.beyondFutureSkew()) {
            WatermarkRecords.flagFuture(headers);
        }
        try {
            context.collector()
                    .send(
                            topic,
                            null,
                            keySerializer.serialize(topic, headers, record.key()),
                            valueSerializer.serialize(topic, headers, record.value()),
                            headers,
                            record.timestamp());
        } catch (InvalidTimestampException e) {
            refused(record, e);
            return;
        }
        produced.increment();
    }

    /**
     * The topic would refuse the record's timestamp (Weir creates repartition topics without timestamp
     * limits; this one was made otherwise). A record beyond its source's future skew is dropped here and
     * counted, as the keyed operator reading the topic would have refused it; any other must not be lost.
     */
    private void refused(Record<K, V> record, InvalidTimestampException e) {
        if (record.beyondFutureSkew()) {
            futureDropped.increment();
            return;
        }
        SourceInfo source = record.source();
        throw new IllegalStateException(
                "Repartition topic '" + topic + "' refuses the timestamp of the record derived "
                        + "from " + (source == null ? "a window result" : source.coordinates()) + ": " + e.getMessage()
                        + ". Set " + TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG + " and "
                        + TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG + " to " + Long.MAX_VALUE
                        + " on it, as Weir does on the repartition topics it creates",
                e);
    }

    @Override
    public void onWatermark(long watermark) {
        this.watermark = watermark;
    }

    @Override
    public void onBatchEnd() {
        if (marks && watermark > sentWatermark) {
            mark(watermark, false);
        }
    }

    @Override
    public void onProcessingTime(long now) {
        boolean idle = context.inputIdle();
        if (marks && idle != sentIdle) {
            mark(watermark, idle);
        }
    }

    private void mark(long watermark, boolean idle) {
        for (int p = 0; p < partitions; p++) {
            context.collector()
                    .send(
                            topic,
                            p,
                            null,
                            null,
                            WatermarkRecords.headers(context.partition(), watermark, idle),
                            context.processingTime());
        }
        sentWatermark = watermark;
        sentIdle = idle;
    }
}
