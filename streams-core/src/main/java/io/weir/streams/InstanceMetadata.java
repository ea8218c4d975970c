package io.weir.streams;

import org.apache.kafka.common.TopicPartition;

import java.util.Set;

/**
 * One instance of the application as the last rebalance placed it: where it answers queries, the
 * stores its tasks hold, and the input partitions they read.
 */
public record InstanceMetadata(HostInfo host, Set<String> stores, Set<TopicPartition> partitions) {

    public InstanceMetadata {
        stores = Set.copyOf(stores);
        partitions = Set.copyOf(partitions);
    }
}
