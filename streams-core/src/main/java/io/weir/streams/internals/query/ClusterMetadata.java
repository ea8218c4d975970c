package io.weir.streams.internals.query;

import io.weir.streams.HostInfo;

import java.util.Map;

/**
 * What this instance knows of the whole application, for routing queries: the tasks each instance
 * (by its {@code application.server}) was given at the last rebalance, active and standby, which every member's assignment
 * carries, and the number of tasks of each sub-topology. Written by the stream threads' assignors and
 * the start thread, read by any thread: each field is replaced whole.
 */
public final class ClusterMetadata {

    private volatile Map<HostInfo, HostTasks> hosts = Map.of();
    private volatile Map<Integer, Integer> taskCounts = Map.of();

    /** The tasks of each instance with an endpoint, as of the last assignment this instance received. */
    public Map<HostInfo, HostTasks> hosts() {
        return hosts;
    }

    public void hosts(Map<HostInfo, HostTasks> hosts) {
        this.hosts = Map.copyOf(hosts);
    }

    /** Tasks per sub-topology (the partition count of its input); empty before the application started. */
    public Map<Integer, Integer> taskCounts() {
        return taskCounts;
    }

    public void taskCounts(Map<Integer, Integer> counts) {
        this.taskCounts = Map.copyOf(counts);
    }
}
