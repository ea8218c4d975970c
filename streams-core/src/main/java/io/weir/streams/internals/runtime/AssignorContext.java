package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.task.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Set;

/**
 * What one stream thread shares with the {@link WeirPartitionAssignor} its consumer instantiates:
 * the topology, the tasks the thread owns (sent in its subscription, for stickiness), and the
 * result of the last assignment. Handed over through the consumer's config under {@link #CONFIG_KEY}.
 * Written by the thread and by the assignor, which the consumer calls on the same thread.
 */
public final class AssignorContext {

    public static final String CONFIG_KEY = "weir.internal.assignor.context";

    private final TopologySpec topology;
    private final String applicationId;
    private final @Nullable HostInfo endpoint;
    private final ClusterMetadata cluster;
    private volatile Set<TaskId> ownedTasks = Set.of();
    private volatile Set<TaskId> assignedTasks = Set.of();
    private volatile @Nullable String error;
    private volatile boolean rebalancing;
    private volatile Runnable onRebalanceStart = () -> {};

    /**
     * @param endpoint this instance's {@code application.server}, sent in its subscription, or null
     * @param cluster  where the tasks of every instance, from each assignment, are kept for routing
     */
    public AssignorContext(
            TopologySpec topology, String applicationId, @Nullable HostInfo endpoint, ClusterMetadata cluster) {
        this.topology = topology;
        this.applicationId = applicationId;
        this.endpoint = endpoint;
        this.cluster = cluster;
    }

    @Nullable
    HostInfo endpoint() {
        return endpoint;
    }

    TopologySpec topology() {
        return topology;
    }

    String applicationId() {
        return applicationId;
    }

    Set<TaskId> ownedTasks() {
        return ownedTasks;
    }

    public void ownedTasks(Set<TaskId> tasks) {
        this.ownedTasks = Set.copyOf(tasks);
    }

    public Set<TaskId> assignedTasks() {
        return assignedTasks;
    }

    /** What to do when this member starts to (re)join the group; runs on the thread polling the consumer. */
    public void onRebalanceStart(Runnable action) {
        this.onRebalanceStart = action;
    }

    void rebalanceStarted() {
        rebalancing = true;
        onRebalanceStart.run();
    }

    /**
     * Whether this member joined the group and awaits its assignment. Offsets cannot be committed then:
     * the group's generation is about to change, and a transaction carrying offsets of the old generation
     * would be refused and must abort.
     */
    public boolean rebalancing() {
        return rebalancing;
    }

    void assigned(Set<TaskId> tasks, @Nullable String assignmentError, Map<HostInfo, Set<TaskId>> hosts) {
        this.rebalancing = false;
        this.assignedTasks = Set.copyOf(tasks);
        this.error = assignmentError;
        cluster.hosts(hosts);
    }

    /** Why the group leader could not assign tasks (a missing topic, unequal partition counts), or null. */
    public @Nullable String assignmentError() {
        return error;
    }
}
