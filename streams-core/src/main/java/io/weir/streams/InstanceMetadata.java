package io.weir.streams;

import org.apache.kafka.common.TopicPartition;

import java.util.Set;

/**
 * One instance of the application as the last rebalance placed it: where it answers queries, the
 * stores its tasks hold, and the input partitions they read.
 *
 * @param host where the instance answers queries (its {@code application.server})
 * @param stores the names of the stores its tasks hold
 * @param partitions the input partitions its tasks read
 */
public record InstanceMetadata(HostInfo host, Set<String> stores, Set<TopicPartition> partitions) {

    /**
     * Copies the sets, so that the record is immutable.
     *
     * @param host where the instance answers queries
     * @param stores the names of the stores its tasks hold
     * @param partitions the input partitions its tasks read
     */
    public InstanceMetadata {
        stores = Set.copyOf(stores);
        partitions = Set.copyOf(partitions);
    }
}
