package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * Where a task's serialized records go: sink topics, side outputs and changelogs. The runtime sends
 * them through the thread's transactional producer; the TestDriver appends them to in-memory topics.
 */
public interface RecordCollector {

    /**
     * Sends one record.
     *
     * @param partition the partition, or null to choose one from the key as Kafka's default
     *                  partitioner does
     * @throws org.apache.kafka.common.errors.RecordTooLargeException before anything is sent, when the
     *         record is larger than {@code topic} accepts ({@link #limits}), and
     *         {@link org.apache.kafka.common.errors.InvalidTimestampException} when {@code topic} would refuse
     *         its timestamp at {@link #now()}: nothing of it is in the output (or the open transaction), so a
     *         caller may skip it. Failures reported once the record was handed to Kafka are not thrown here:
     *         they fail the next commit.
     */
    void send(
            String topic,
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp);

    /** The number of partitions of {@code topic}. */
    int partitionsFor(String topic);

    /** What {@code topic} accepts, which {@link #send} checks. */
    TopicLimits limits(String topic);

    /**
     * The time {@link #send} judges timestamps against: the wall clock in the runtime (the broker's
     * judges by its own), processing time in the TestDriver.
     */
    long now();
}
