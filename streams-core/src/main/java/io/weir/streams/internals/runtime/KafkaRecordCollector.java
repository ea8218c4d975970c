package io.weir.streams.internals.runtime;

import io.weir.streams.internals.processor.RecordCollector;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends a thread's records through its producer (inside the open transaction under exactly-once).
 * Remembers the last offset written to each partition, so a commit can tell each store which
 * changelog offset its contents reach, and the first send failure, which fails the next commit
 * (nothing is skipped silently). A record too large for its topic is refused before it is sent
 * ({@link RecordSizeLimits}). Used by one thread; callbacks arrive on the producer's I/O thread.
 */
final class KafkaRecordCollector implements RecordCollector {

    private final Producer<byte[], byte[]> producer;
    private final Runnable beforeSend;
    private final RecordSizeLimits sizeLimits;
    private final Map<TopicPartition, Long> lastOffsets = new ConcurrentHashMap<>();
    private final Map<String, Integer> partitionCounts = new HashMap<>();
    private volatile @Nullable Exception sendError;

    /**
     * @param beforeSend runs before every send (opens the transaction under exactly-once)
     * @param sizeLimits refuses records too large for their topic before they are sent
     */
    KafkaRecordCollector(Producer<byte[], byte[]> producer, Runnable beforeSend, RecordSizeLimits sizeLimits) {
        this.producer = producer;
        this.beforeSend = beforeSend;
        this.sizeLimits = sizeLimits;
    }

    @Override
    public void send(
            String topic,
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp) {
        sizeLimits.check(topic, key, value, headers);
        beforeSend.run();
        // The callback handles the outcome; the future adds nothing.
        @SuppressWarnings("FutureReturnValueIgnored")
        var unused =
                producer.send(new ProducerRecord<>(topic, partition, timestamp, key, value, headers), (metadata, e) -> {
                    if (e != null) {
                        if (sendError == null) {
                            sendError = e;
                        }
                    } else {
                        lastOffsets.merge(
                                new TopicPartition(metadata.topic(), metadata.partition()),
                                metadata.offset(),
                                Math::max);
                    }
                });
    }

    @Override
    public int partitionsFor(String topic) {
        return partitionCounts.computeIfAbsent(
                topic, t -> producer.partitionsFor(t).size());
    }

    /** The highest offset written to {@code partition} so far, or null. */
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
