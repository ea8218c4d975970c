package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.task.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.jspecify.annotations.Nullable;

import java.util.Set;

/**
 * What one stream thread shares with the {@link WeirPartitionAssignor} its consumer instantiates:
 * the topology, the tasks and standbys the thread holds (sent in its subscription, for stickiness),
 * and the result of the last assignment. Handed over through the consumer's config under {@link
 * #CONFIG_KEY}. Written by the thread and by the assignor, which the consumer calls on the same thread.
 */
public final class AssignorContext {

    public static final String CONFIG_KEY = "weir.internal.assignor.context";

    private final TopologySpec topology;
    private final String applicationId;
    private final @Nullable HostInfo endpoint;
    private final ClusterMetadata cluster;
    private final String processId;
    private final int standbyReplicas;
    private volatile Set<TaskId> ownedTasks = Set.of();
    private volatile Set<TaskId> ownedStandbys = Set.of();
    private volatile Set<TaskId> assignedTasks = Set.of();
    private volatile Set<TaskId> assignedStandbys = Set.of();
    private volatile @Nullable String error;
    private volatile boolean rebalancing;
    private volatile boolean rejoinRequested;
    private volatile Runnable onRebalanceStart = () -> {};

    /**
     * @param endpoint this instance's {@code application.server}, sent in its subscription, or null
     * @param cluster where the tasks of every instance, from each assignment, are kept for routing
     * @param processId the instance's id: standby copies go to other instances than their active task
     * @param standbyReplicas standby copies per task ({@code num.standby.replicas}), as far as there are
     *     other instances
     */
    public AssignorContext(
            TopologySpec topology,
            String applicationId,
            @Nullable HostInfo endpoint,
            ClusterMetadata cluster,
            String processId,
            int standbyReplicas) {
        this.topology = topology;
        this.applicationId = applicationId;
        this.endpoint = endpoint;
        this.cluster = cluster;
        this.processId = processId;
        this.standbyReplicas = standbyReplicas;
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

    String processId() {
        return processId;
    }

    int standbyReplicas() {
        return standbyReplicas;
    }

    Set<TaskId> ownedTasks() {
        return ownedTasks;
    }

    Set<TaskId> ownedStandbys() {
        return ownedStandbys;
    }

    /** What the thread holds now, said in its next subscription: its running and restoring tasks, its standbys. */
    public void owned(Set<TaskId> tasks, Set<TaskId> standbys) {
        this.ownedTasks = Set.copyOf(tasks);
        this.ownedStandbys = Set.copyOf(standbys);
    }

    public Set<TaskId> assignedTasks() {
        return assignedTasks;
    }

    public Set<TaskId> assignedStandbys() {
        return assignedStandbys;
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

    void assigned(AssignorMessages.Assignment assignment) {
        this.rebalancing = false;
        this.assignedTasks = Set.copyOf(assignment.tasks());
        this.assignedStandbys = Set.copyOf(assignment.standbys());
        this.error = assignment.error();
        this.rejoinRequested = assignment.rejoin();
        cluster.hosts(assignment.hosts());
    }

    /**
     * Whether the last assignment asked this member to rejoin at once (a task it or another member is to
     * get was withheld this time); true once per such assignment.
     */
    public boolean takeRejoinRequest() {
        boolean requested = rejoinRequested;
        rejoinRequested = false;
        return requested;
    }

    /** Why the group leader could not assign tasks (a missing topic, unequal partition counts), or null. */
    public @Nullable String assignmentError() {
        return error;
    }
}
