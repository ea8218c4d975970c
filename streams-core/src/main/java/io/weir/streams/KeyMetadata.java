package io.weir.streams;

import java.util.Set;

/**
 * Where a key of a store lives now: the instance whose task holds the key's partition ({@link
 * #activeHost()}), the instances that keep standby copies of it ({@link #standbyHosts()}, with {@link
 * StreamsConfig#NUM_STANDBY_REPLICAS}; they answer queries with {@code
 * StoreQuery.withStaleReads(true)}), and the partition.
 *
 * @param activeHost the instance whose active task holds the key's partition
 * @param standbyHosts the instances with a standby copy of that partition; empty without standbys
 * @param partition the key's partition of the store's input
 */
public record KeyMetadata(HostInfo activeHost, Set<HostInfo> standbyHosts, int partition) {

    /**
     * Copies {@code standbyHosts}, so that the record is immutable.
     *
     * @param activeHost the instance whose active task holds the key's partition
     * @param standbyHosts the instances with a standby copy of that partition
     * @param partition the key's partition
     */
    public KeyMetadata {
        standbyHosts = Set.copyOf(standbyHosts);
    }
}
