package io.weir.streams;

import java.util.Set;

/**
 * Where a key of a store lives now: the instance whose task holds the key's partition ({@link
 * #activeHost()}), the instances that keep standby copies of it ({@link #standbyHosts()}, with {@link
 * StreamsConfig#NUM_STANDBY_REPLICAS}; they answer queries with {@code
 * StoreQuery.withStaleReads(true)}), and the partition.
 */
public record KeyMetadata(HostInfo activeHost, Set<HostInfo> standbyHosts, int partition) {

    public KeyMetadata {
        standbyHosts = Set.copyOf(standbyHosts);
    }
}
