package io.weir.streams.dsl;

import org.jspecify.annotations.Nullable;

/**
 * Chooses the partition a sink writes a record to ({@link Produced#withPartitioner}), in place of
 * Kafka's default (murmur2 of the serialized key). A partitioner that throws, or returns a partition
 * outside {@code [0, numPartitions)}, fails as user code ({@code ProcessingError}). Also given to {@code
 * WeirStreams.metadataForKey} to find where a store's key lives when the store's input was written with
 * it: it must then choose by the key alone.
 */
@FunctionalInterface
public interface StreamPartitioner<K, V> {

    /**
     * The partition of {@code topic}, which has {@code numPartitions}, for this record; {@code value} is
     * null when {@code WeirStreams.metadataForKey} asks about a key.
     *
     * @param topic the topic being written to
     * @param key the record's key
     * @param value the record's value; null when asked about a key alone
     * @param numPartitions the topic's partition count
     * @return the partition, from 0 to {@code numPartitions - 1}
     */
    int partition(String topic, K key, @Nullable V value, int numPartitions);
}
