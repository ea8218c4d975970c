package io.weir.streams.internals.runtime;

import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.TopicLimits;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends a thread's records through its producer (inside the open transaction under exactly-once).
 * Remembers the last offset written to each partition of the changelog topics it is given, so a
 * commit can tell each store which changelog offset its contents reach (other topics' offsets are not
 * kept: the callback runs for every record, on the producer's I/O thread), and the first send
 * failure, which fails the next commit (nothing is skipped silently). A record its topic would refuse
 * (too large, a timestamp out of range) is refused before it is sent ({@link TopicLimitsReader}). Used by one thread; callbacks
 * arrive on the producer's I/O thread.
 */
final class KafkaRecordCollector implements RecordCollector {

    private final Producer<byte[], byte[]> producer;
    private final Runnable beforeSend;
    private final TopicLimitsReader limits;
    private final Set<String> trackedTopics;
    private final Callback errorsOnly = (metadata, e) -> failed(e);
    private final Callback tracked = this::tracked;
    private final Map<TopicPartition, Long> lastOffsets = new ConcurrentHashMap<>();
    private final Map<String, Integer> partitionCounts = new HashMap<>();
    private volatile @Nullable Exception sendError;

    /**
     * @param beforeSend    runs before every send (opens the transaction under exactly-once)
     * @param limits        what each topic accepts, checked before a record is sent
     * @param trackedTopics the topics whose last written offsets {@link #lastOffset} tells
     */
    KafkaRecordCollector(
            Producer<byte[], byte[]> producer,
            Runnable beforeSend,
            TopicLimitsReader limits,
            Set<String> trackedTopics) {
        this.producer = producer;
        this.beforeSend = beforeSend;
        this.limits = limits;
        this.trackedTopics = Set.copyOf(trackedTopics);
    }

    @Override
    public void send(
            String topic,
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp) {
        limits.limits(topic).check(topic, key, value, headers, timestamp, now());
        beforeSend.run();
        // The callback handles the outcome; the future adds nothing.
        @SuppressWarnings("FutureReturnValueIgnored")
        var unused = producer.send(
                new ProducerRecord<>(topic, partition, timestamp, key, value, headers),
                trackedTopics.contains(topic) ? tracked : errorsOnly);
    }

    private void tracked(RecordMetadata metadata, @Nullable Exception e) {
        if (e != null) {
            failed(e);
        } else {
            lastOffsets.merge(new TopicPartition(metadata.topic(), metadata.partition()), metadata.offset(), Math::max);
        }
    }

    private void failed(@Nullable Exception e) {
        if (e != null && sendError == null) {
            sendError = e;
        }
    }

    @Override
    public int partitionsFor(String topic) {
        return partitionCounts.computeIfAbsent(
                topic, t -> producer.partitionsFor(t).size());
    }

    @Override
    public TopicLimits limits(String topic) {
        return limits.limits(topic);
    }

    @Override
    public long now() {
        return System.currentTimeMillis();
    }

    /** The highest offset written to {@code partition} (of a tracked topic) so far, or null. */
    @Nullable
    Long lastOffset(TopicPartition partition) {
        return lastOffsets.get(partition);
    }

    /** Throws the first send failure since the last call, if any. */
    void checkForErrors() {
        Exception e = sendError;
        if (e != null) {
            sendError = null;
            throw new IllegalStateException("Producing a record failed: " + e, e);
        }
    }
}
