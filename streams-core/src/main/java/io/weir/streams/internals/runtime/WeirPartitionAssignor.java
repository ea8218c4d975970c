package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.HostTasks;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Weir's assignor for the consumer group of an application (classic group protocol). It assigns
 * tasks, not partitions: a task (sub-topology, partition number) gets that partition of every topic
 * its sub-topology reads, so co-partitioned topics meet in one task.
 *
 * <p>Sticky and balanced, with standby copies on other instances, and a task active only where its
 * state is caught up: {@link TaskPlacement} decides, from the tasks and copies each member reports
 * holding and how far behind each copy is (its subscription carries them). A task therefore stays where
 * its local state is whenever the balance allows, a task that must move goes where a copy is, and a task
 * the balance wants on an instance without a caught-up copy stays where it is while a warm-up copy there
 * catches up. Every member's assignment also lists each instance's {@code application.server} with its
 * tasks ({@link AssignorMessages}), so that any instance can route a query about a key. When tasks
 * cannot be formed (a source topic is missing, co-partitioned topics differ in
 * partition count) every member receives no task and the reason, and fails with it.
 *
 * <p>Cooperative (KIP-429): a member keeps its tasks through a rebalance, and only the tasks that move
 * stop. A task that another member still owns is not handed to its new owner in the same rebalance: the
 * old owner is assigned without it, commits and closes it; the next rebalance, in which nobody owns it,
 * gives it to the new owner. Every member is told to rejoin at once for that second rebalance: the old
 * owner alone would not do if it died in between and a static member took its place, which receives
 * the old owner's assignment and owns nothing to revoke.
 *
 * <p>Versioned ({@link GroupProtocol}): the leader writes every assignment in the lowest protocol version a
 * member speaks, the group's version in use. A member whose subscription this release cannot read (a
 * newer release's layout) keeps the tasks whose partitions it owns where the balance allows, and is asked
 * to rejoin, speaking a layout this release reads; a member of a layout older than any this release reads
 * is given the reason, and fails with it, while the others go on.
 */
public final class WeirPartitionAssignor implements ConsumerPartitionAssignor, Configurable {

    private AssignorContext context;

    @Override
    public void configure(Map<String, ?> configs) {
        Object c = configs.get(AssignorContext.CONFIG_KEY);
        if (!(c instanceof AssignorContext assignorContext)) {
            throw new IllegalArgumentException("WeirPartitionAssignor needs '" + AssignorContext.CONFIG_KEY
                    + "' in the consumer config; it is used only by Weir's own consumers");
        }
        this.context = assignorContext;
    }

    @Override
    public String name() {
        return "weir";
    }

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE);
    }

    /** Called when this member (re)joins the group: a rebalance has started. */
    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        context.rebalanceStarted();
        return AssignorMessages.subscription(new AssignorMessages.Subscription(
                context.ownedTasks(),
                context.copyLags(),
                context.endpoint(),
                context.processId(),
                context.transactionalId(),
                context.speaks(),
                GroupProtocol.LAYOUT));
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>();
        groupSubscription
                .groupSubscription()
                .forEach((member, subscription) ->
                        members.put(member, AssignorMessages.subscription(subscription.userData())));
        Map<String, Assignment> out = new HashMap<>();
        int version = context.speaks();
        Set<String> unreadable = new TreeSet<>();
        for (Iterator<Map.Entry<String, AssignorMessages.Subscription>> it =
                        members.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, AssignorMessages.Subscription> e = it.next();
            AssignorMessages.Subscription s = e.getValue();
            if (s.readable()) {
                version = Math.min(version, s.version());
            } else if (s.layout() > GroupProtocol.LAYOUT) {
                unreadable.add(e.getKey());
            } else {
                it.remove();
                out.put(e.getKey(), failed(tooOld(s.layout()), version));
            }
        }
        Set<String> roster = new TreeSet<>();
        members.values().forEach(s -> {
            String id = s.transactionalId();
            if (id != null) {
                roster.add(id);
            }
        });
        context.fenceDeparted(roster);
        TopologySpec topology = context.topology();
        String app = context.applicationId();
        Map<Integer, Integer> taskCounts;
        try {
            taskCounts = topology.taskCounts(metadata::partitionCountForTopic);
        } catch (IllegalStateException e) {
            for (String m : members.keySet()) {
                out.put(m, failed(e.getMessage(), version));
            }
            return new GroupAssignment(out);
        }
        Set<TaskId> all = new TreeSet<>();
        taskCounts.forEach((sub, count) -> {
            for (int p = 0; p < count; p++) {
                all.add(new TaskId(sub, p));
            }
        });
        Map<TopicPartition, String> owners = owners(groupSubscription);
        for (String member : unreadable) {
            members.computeIfPresent(member, (m, s) -> s.owning(tasksOwnedBy(m, all, owners, topology, app)));
        }
        Map<TaskId, List<TopicPartition>> changelogs = new HashMap<>();
        all.forEach(task -> changelogs.put(task, changelogPartitions(topology, app, task)));
        Map<TopicPartition, Long> sizes = context.changelogSizes(
                changelogs.values().stream().flatMap(List::stream).toList());
        TaskPlacement.Placement placement = TaskPlacement.place(
                all, t -> !changelogs.getOrDefault(t, List.of()).isEmpty(), members, context.placement(), task -> {
                    long records = 0;
                    for (TopicPartition tp : changelogs.getOrDefault(task, List.of())) {
                        Long size = sizes.get(tp);
                        if (size == null) {
                            return Long.MAX_VALUE;
                        }
                        records += size;
                    }
                    return records;
                });
        Map<String, Set<TaskId>> tasksOf = placement.active();
        boolean withheld = withholdOwnedElsewhere(tasksOf, placement.standbys(), owners, topology, app);
        // Every instance's endpoint and tasks (its threads share one endpoint), for routing queries.
        Map<HostInfo, Set<TaskId>> activeOf = new TreeMap<>(Comparator.comparing(HostInfo::toString));
        Map<HostInfo, Set<TaskId>> standbysOf = new TreeMap<>(Comparator.comparing(HostInfo::toString));
        members.forEach((member, subscription) -> {
            HostInfo endpoint = subscription.endpoint();
            if (endpoint != null) {
                activeOf.computeIfAbsent(endpoint, h -> new TreeSet<>()).addAll(tasksOf.getOrDefault(member, Set.of()));
                standbysOf
                        .computeIfAbsent(endpoint, h -> new TreeSet<>())
                        .addAll(placement.standbys().get(member));
            }
        });
        Map<HostInfo, HostTasks> hosts = new TreeMap<>(Comparator.comparing(HostInfo::toString));
        activeOf.forEach((host, active) ->
                hosts.put(host, new HostTasks(active, standbysOf.getOrDefault(host, Set.of()))));
        int inUse = version;
        tasksOf.forEach((member, tasks) -> {
            List<TopicPartition> partitions = new ArrayList<>();
            for (TaskId task : tasks) {
                partitions.addAll(inputPartitions(topology, app, task));
            }
            out.put(
                    member,
                    new Assignment(
                            partitions,
                            AssignorMessages.assignment(new AssignorMessages.Assignment(
                                    tasks,
                                    placement.standbys().getOrDefault(member, Set.of()),
                                    placement.warmups().getOrDefault(member, Set.of()),
                                    null,
                                    hosts,
                                    withheld || unreadable.contains(member),
                                    roster,
                                    inUse))));
        });
        return new GroupAssignment(out);
    }

    private static Assignment failed(@Nullable String error, int version) {
        return new Assignment(
                List.of(),
                AssignorMessages.assignment(new AssignorMessages.Assignment(Set.of(), error, Map.of(), version)));
    }

    private static String tooOld(int layout) {
        return "This instance wrote Weir group protocol layout " + layout + ", older than any the group's leader reads"
                + " (layout " + GroupProtocol.LAYOUT + ", versions " + GroupProtocol.OLDEST + " to "
                + GroupProtocol.LATEST + "): only adjacent releases share a group; upgrade this instance "
                + "(docs/guides/operating.md#rolling-upgrades)";
    }

    /**
     * The tasks all of whose input partitions {@code member} owns, as the consumer protocol reports them: what
     * a member whose subscription this release cannot read runs.
     */
    static Set<TaskId> tasksOwnedBy(
            String member, Set<TaskId> all, Map<TopicPartition, String> owners, TopologySpec topology, String app) {
        Set<TaskId> owned = new TreeSet<>();
        for (TaskId task : all) {
            List<TopicPartition> inputs = inputPartitions(topology, app, task);
            if (!inputs.isEmpty() && inputs.stream().allMatch(tp -> member.equals(owners.get(tp)))) {
                owned.add(task);
            }
        }
        return owned;
    }

    /**
     * Who owns each input partition, as the members report it. Two members claim one partition when one
     * of them missed a rebalance: the claim of the later generation counts.
     */
    private static Map<TopicPartition, String> owners(GroupSubscription group) {
        Map<TopicPartition, String> owner = new HashMap<>();
        Map<TopicPartition, Integer> generation = new HashMap<>();
        group.groupSubscription().forEach((member, subscription) -> {
            int memberGeneration = subscription.generationId().orElse(-1);
            for (TopicPartition tp : subscription.ownedPartitions()) {
                Integer previous = generation.get(tp);
                if (previous == null || memberGeneration > previous) {
                    owner.put(tp, member);
                    generation.put(tp, memberGeneration);
                }
            }
        });
        return owner;
    }

    /**
     * Removes from each member the tasks another member still owns: they move in the next rebalance.
     * A withheld task with state stays a standby copy of its new owner meanwhile: the copy or warm-up it
     * has (the reason it was chosen) is kept, not dropped and read again.
     *
     * @param standbysOf each member's standby copies, to which withheld tasks are added
     * @return whether any task was withheld, so that every member must rejoin at once
     */
    static boolean withholdOwnedElsewhere(
            Map<String, Set<TaskId>> tasksOf,
            Map<String, Set<TaskId>> standbysOf,
            Map<TopicPartition, String> owners,
            TopologySpec topology,
            String app) {
        boolean withheld = false;
        for (Map.Entry<String, Set<TaskId>> e : tasksOf.entrySet()) {
            String member = e.getKey();
            for (Iterator<TaskId> it = e.getValue().iterator(); it.hasNext(); ) {
                TaskId task = it.next();
                boolean ownedElsewhere = inputPartitions(topology, app, task).stream()
                        .map(owners::get)
                        .anyMatch(owner -> owner != null && !owner.equals(member));
                if (ownedElsewhere) {
                    it.remove();
                    withheld = true;
                    if (!changelogPartitions(topology, app, task).isEmpty()) {
                        standbysOf.computeIfAbsent(member, m -> new TreeSet<>()).add(task);
                    }
                }
            }
        }
        return withheld;
    }

    /**
     * The changelogs a standby or warm-up copy of {@code task} follows: its stores' own (not a source
     * table's, whose changelog is its input topic).
     */
    static List<TopicPartition> changelogPartitions(TopologySpec topology, String app, TaskId task) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (StoreSpec store : topology.storesOf(topology.subtopologies().get(task.subtopology()))) {
            if (store.ownChangelog()) {
                partitions.add(new TopicPartition(store.changelogTopic(app), task.partition()));
            }
        }
        return partitions;
    }

    static List<TopicPartition> inputPartitions(TopologySpec topology, String app, TaskId task) {
        SubtopologySpec sub = topology.subtopologies().get(task.subtopology());
        List<TopicPartition> partitions = new ArrayList<>();
        for (SourceSpec source : sub.sources()) {
            partitions.add(new TopicPartition(source.topic(app), task.partition()));
        }
        return partitions;
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        context.assigned(AssignorMessages.assignment(assignment.userData()));
    }
}
