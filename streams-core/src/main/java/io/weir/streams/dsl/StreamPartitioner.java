package io.weir.streams.dsl;

/**
 * Chooses the partition a sink writes a record to ({@link Produced#withPartitioner}), in place of
 * Kafka's default (murmur2 of the serialized key). A partitioner that throws, or returns a partition
 * outside {@code [0, numPartitions)}, fails as user code ({@code ProcessingError}).
 */
@FunctionalInterface
public interface StreamPartitioner<K, V> {

    /** The partition of {@code topic}, which has {@code numPartitions}, for this record. */
    int partition(String topic, K key, V value, int numPartitions);
}
