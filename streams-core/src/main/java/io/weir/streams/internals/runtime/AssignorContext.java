package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.StreamsConfig;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What one stream thread shares with the {@link WeirPartitionAssignor} its consumer instantiates:
 * the topology, the tasks and copies the thread holds with their lags (sent in its subscription, for
 * stickiness and to place tasks where their state is caught up), and the result of the last
 * assignment, including when to ask for the next one: at once when a task was withheld, and when a
 * warm-up copy has caught up (or, failing that, after {@code probing.rebalance.interval.ms}). Handed over
 * through the consumer's config under {@link #CONFIG_KEY}. Written by the thread and by the assignor,
 * which the consumer calls on the same thread.
 */
public final class AssignorContext {

    private static final Logger LOG = LoggerFactory.getLogger(AssignorContext.class);

    public static final String CONFIG_KEY = "weir.internal.assignor.context";

    /**
     * How long a member waits before it asks again because the same warm-up caught up: the leader should
     * have moved the task the first time, so a second ask means the lag it saw was higher, and asking at
     * every assignment would keep the group rebalancing.
     */
    static final long REPEAT_PROBE_BACKOFF_MS = 10_000;

    private final TopologySpec topology;
    private final String applicationId;
    private final @Nullable HostInfo endpoint;
    private final ClusterMetadata cluster;
    private final String processId;
    private final PlacementSettings placement;
    private final long probingIntervalMs;
    private final int speaks;
    private volatile int versionInUse;
    private volatile Function<Collection<TopicPartition>, Map<TopicPartition, Long>> changelogSizes =
            partitions -> Map.of();
    private volatile Set<TaskId> ownedTasks = Set.of();
    private volatile Supplier<Map<TaskId, Long>> standbyLags = Map::of;
    private volatile Supplier<Map<TaskId, Long>> stateOnDisk = Map::of;
    private volatile @Nullable String transactionalId;
    private volatile Consumer<Set<String>> fencer = ids -> {};
    /** The transactional ids of the members of the last generation this member was assigned in. */
    private volatile Set<String> roster = Set.of();

    private volatile Set<TaskId> assignedTasks = Set.of();
    private volatile Set<TaskId> assignedStandbys = Set.of();
    private volatile Set<TaskId> warmups = Set.of();
    private volatile long assignedAtMs;
    private volatile boolean probed;
    /** When this member last asked because each warm-up caught up; used by the polling thread only. */
    private final Map<TaskId, Long> probedAt = new HashMap<>();

    private volatile @Nullable String error;
    private volatile boolean rebalancing;
    private volatile boolean rejoinRequested;
    private volatile Runnable onRebalanceStart = () -> {};

    /**
     * @param endpoint this instance's {@code application.server}, sent in its subscription, or null
     * @param cluster where the tasks of every instance, from each assignment, are kept for routing
     * @param processId the instance's id: standby copies go to other instances than their active task
     * @param config the settings of task placement ({@code num.standby.replicas}, warm-ups) and probing
     */
    public AssignorContext(
            TopologySpec topology,
            String applicationId,
            @Nullable HostInfo endpoint,
            ClusterMetadata cluster,
            String processId,
            StreamsConfig config) {
        this.topology = topology;
        this.applicationId = applicationId;
        this.endpoint = endpoint;
        this.cluster = cluster;
        this.processId = processId;
        this.placement = PlacementSettings.of(config);
        this.probingIntervalMs = config.probingRebalanceIntervalMs();
        this.speaks = config.upgradeFrom().orElse(GroupProtocol.LATEST);
        this.versionInUse = speaks;
    }

    /**
     * The newest group protocol version this member speaks: this release's, or the one {@code upgrade.from}
     * holds it at.
     */
    int speaks() {
        return speaks;
    }

    /**
     * The group protocol version the group uses, from the last assignment: the lowest any member speaks
     * ({@link GroupProtocol}); until then, the one this member speaks.
     */
    public int versionInUse() {
        return versionInUse;
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

    PlacementSettings placement() {
        return placement;
    }

    /** Where the leader reads the changelogs' sizes: how far behind an instance without a copy is. */
    void changelogSizes(ChangelogSizes sizes) {
        this.changelogSizes = sizes::of;
    }

    /** The records of each changelog partition in {@code partitions} that could be read; see {@link ChangelogSizes}. */
    Map<TopicPartition, Long> changelogSizes(Collection<TopicPartition> partitions) {
        return changelogSizes.apply(partitions);
    }

    Set<TaskId> ownedTasks() {
        return ownedTasks;
    }

    /**
     * The copies the next subscription reports, each with the changelog records it has not read yet: the
     * thread's standby copies, and the instance's state on disk that no thread holds.
     */
    Map<TaskId, Long> copyLags() {
        Map<TaskId, Long> copies = new HashMap<>(stateOnDisk.get());
        copies.putAll(standbyLags.get());
        return copies;
    }

    /** What the thread runs now, said in its next subscription: its running and restoring tasks. */
    public void owned(Set<TaskId> tasks) {
        this.ownedTasks = Set.copyOf(tasks);
    }

    /**
     * Where the next subscription reads the thread's copies from, each with the changelog records it has
     * not read yet; called on the thread polling the consumer.
     */
    public void standbyLags(Supplier<Map<TaskId, Long>> lags) {
        this.standbyLags = lags;
    }

    /**
     * Where the next subscription reads the state the instance has on disk for tasks no thread holds,
     * with its lag (see {@link StateOnDisk}); called on the thread polling the consumer, when it joins.
     */
    void stateOnDisk(Supplier<Map<TaskId, Long>> lags) {
        this.stateOnDisk = lags;
    }

    /**
     * Under exactly-once: this member's producer's transactional id, said in its subscriptions, and how,
     * when it leads a rebalance, it aborts the transactions of the members that left (a {@link
     * TransactionFencer}).
     */
    void transactions(String id, Consumer<Set<String>> abortTransactionsOf) {
        this.transactionalId = id;
        this.fencer = abortTransactionsOf;
    }

    @Nullable
    String transactionalId() {
        return transactionalId;
    }

    /**
     * As the leader of a rebalance whose members have the transactional ids {@code current}: aborts the
     * open transactions of the last generation's members that are gone (see {@link TransactionFencer}),
     * before their tasks go to others, so that the new owners read committed offsets and changelogs at
     * once.
     */
    void fenceDeparted(Set<String> current) {
        Set<String> gone = new TreeSet<>(roster);
        gone.removeAll(current);
        if (!gone.isEmpty()) {
            fencer.accept(gone);
        }
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
        this.warmups = Set.copyOf(assignment.warmups());
        this.assignedAtMs = System.currentTimeMillis();
        this.probed = false;
        this.error = assignment.error();
        this.rejoinRequested = assignment.rejoin();
        this.roster = Set.copyOf(assignment.roster());
        int version = Math.min(assignment.version(), speaks);
        if (version != versionInUse) {
            LOG.info(
                    "The group of {} now uses Weir group protocol version {} (was {}; this instance speaks up to {})",
                    applicationId,
                    version,
                    versionInUse,
                    speaks);
            versionInUse = version;
        }
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

    /**
     * Why this member should ask for a new assignment now, to let a task move to its warm-up copy here, or
     * null: once per assignment with warm-ups, as soon as one of them misses no more than {@code
     * acceptable.recovery.lag} records (the leader then sees it caught up; not again for the same task
     * within {@link #REPEAT_PROBE_BACKOFF_MS}), or when {@code probing.rebalance.interval.ms} has passed
     * without that. The warm-ups' lags are read from {@link #standbyLags(Supplier)}, only while they wait.
     */
    public @Nullable String takeProbeReason(long nowMs) {
        if (warmups.isEmpty() || probed) {
            return null;
        }
        Map<TaskId, Long> behindOf = standbyLags.get();
        String reason = null;
        for (TaskId task : warmups) {
            Long behind = behindOf.get(task);
            Long asked = probedAt.get(task);
            if (behind != null
                    && behind <= placement.acceptableRecoveryLag()
                    && (asked == null || nowMs - asked >= REPEAT_PROBE_BACKOFF_MS)) {
                probedAt.put(task, nowMs);
                reason = "the warm-up copy of task " + task + " caught up";
                break;
            }
        }
        if (reason == null && nowMs - assignedAtMs >= probingIntervalMs) {
            reason = "probing: the warm-up copies " + warmups + " are not caught up after " + probingIntervalMs + " ms";
        }
        probed = reason != null;
        return reason;
    }

    /** Why the group leader could not assign tasks (a missing topic, unequal partition counts), or null. */
    public @Nullable String assignmentError() {
        return error;
    }
}
