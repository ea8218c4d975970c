package io.weir.streams.internals.runtime;

import io.weir.streams.internals.topology.TaskId;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Where the group's tasks, their standby copies and their warm-up copies go: the decision of {@link
 * WeirPartitionAssignor}, from what each member holds and how far behind its copies are, with no Kafka
 * in sight.
 *
 * <ul>
 *   <li><b>Balance</b>, per member (thread): each member keeps the tasks it holds up to its fair share,
 *       {@code ceil(tasks / members)}, giving up first those another instance has a caught-up copy of.
 *       The remaining tasks are placed next, those with a copy in the group first: each goes to the
 *       member under its share keeping the most caught-up copy of it, else to the least loaded member.
 *       (Not over the share: a task withheld for one round of a cooperative move looks like one whose
 *       owner left, and would go back to its old owner's copy.) Tasks with changelogged state are
 *       balanced this way among themselves first, then the stateless ones fill each member up to its share
 *       of all tasks, so that every instance holds its share of the state and of the restores.
 *   <li><b>Only where the state is caught up</b> (KIP-441): a task placed on an instance that would
 *       replay more than {@code acceptable.recovery.lag} records (its copy's lag, or without a copy the
 *       whole changelog), while another instance would not, stays active on the caught-up instance (its owner if it has one, else the least behind), even
 *       over its share; the instance the balance chose gets a <b>warm-up</b> copy, up to {@code
 *       max.warmup.replicas} in the group. The warm-up's member asks for a new assignment once it is caught
 *       up, and the task then moves, replaying only the copy's lag. If no instance is caught up the task
 *       goes where the balance put it: it has to be restored wherever it runs.
 *   <li><b>Standby copies</b>, per instance (members with one process id): up to {@code standbys} per
 *       task, each on another instance than the task's active, its warm-up and each other, so that losing
 *       an instance never loses every copy. An instance that already holds the task keeps its copy; the
 *       others go to the instances with the fewest copies of the same instance's tasks, then the fewest
 *       copies: a lost instance's tasks then fail over to several instances, each within its share.
 *   <li>Within one instance, a task held by one of its threads goes to that same thread again, active,
 *       standby or warm-up: two threads of one instance never open one task's state directory at once.
 * </ul>
 */
final class TaskPlacement {

    /**
     * Each member's active tasks, standby copies and, among those copies, warm-ups; every member is a key
     * of each.
     */
    record Placement(
            Map<String, Set<TaskId>> active, Map<String, Set<TaskId>> standbys, Map<String, Set<TaskId>> warmups) {}

    private final Set<TaskId> all;
    private final Predicate<TaskId> stateful;
    private final Map<String, AssignorMessages.Subscription> members;
    private final PlacementSettings settings;
    private final ToLongFunction<TaskId> restoreRecords;
    private final Map<String, String> processOf = new TreeMap<>();
    /** Per task, per instance: the thread that holds it now (active or copy). */
    private final Map<TaskId, Map<String, String>> holder = new HashMap<>();
    /** Per task, per instance: the records its copy misses; 0 where the task runs. */
    private final Map<TaskId, Map<String, Long>> lag = new HashMap<>();

    private TaskPlacement(
            Set<TaskId> all,
            Predicate<TaskId> stateful,
            Map<String, AssignorMessages.Subscription> members,
            PlacementSettings settings,
            ToLongFunction<TaskId> restoreRecords) {
        this.all = all;
        this.stateful = stateful;
        this.members = members;
        this.settings = settings;
        this.restoreRecords = restoreRecords;
        members.forEach((member, s) -> processOf.put(member, s.process().isEmpty() ? member : s.process()));
        members.forEach((member, s) -> {
            String process = process(member);
            s.owned().forEach(t -> hold(t, process, member, 0L));
            s.standbyLags().forEach((t, behind) -> hold(t, process, member, behind));
        });
    }

    private String process(String member) {
        return of(processOf, member);
    }

    /** {@code map}'s value for a key it is known to hold (every member is a key of each placement map). */
    private static <K, V> V of(Map<K, V> map, K key) {
        return Objects.requireNonNull(map.get(key), () -> "no " + key);
    }

    private void hold(TaskId task, String process, String member, long behind) {
        holder.computeIfAbsent(task, k -> new HashMap<>()).putIfAbsent(process, member);
        lag.computeIfAbsent(task, k -> new HashMap<>()).merge(process, behind, Math::min);
    }

    /**
     * @param stateful whether a task keeps state in changelogged stores; those are balanced among
     *     themselves
     * @param restoreRecords the changelog records a restore of a task from nothing reads: 0 for a task
     *     without changelogs, {@link Long#MAX_VALUE} when not known. An instance without a copy is behind
     *     by that much.
     */
    static Placement place(
            Set<TaskId> all,
            Predicate<TaskId> stateful,
            Map<String, AssignorMessages.Subscription> members,
            PlacementSettings settings,
            ToLongFunction<TaskId> restoreRecords) {
        return new TaskPlacement(all, stateful, members, settings, restoreRecords).place();
    }

    private Placement place() {
        Map<String, Set<TaskId>> active = balanced();
        Map<String, Set<TaskId>> warmups = emptyPerMember();
        keepWhereCaughtUp(active, warmups);
        Map<String, Set<TaskId>> copies = standbys(active, warmups);
        warmups.forEach((member, tasks) -> of(copies, member).addAll(tasks));
        return new Placement(active, copies, warmups);
    }

    private Map<String, Set<TaskId>> emptyPerMember() {
        Map<String, Set<TaskId>> out = new TreeMap<>();
        members.keySet().forEach(m -> out.put(m, new TreeSet<>()));
        return out;
    }

    /** Records the instance {@code process} would replay to run {@code task}: its copy's lag, or a full restore. */
    private long behind(TaskId task, String process) {
        long full = restoreRecords.applyAsLong(task);
        return Math.min(full, lag.getOrDefault(task, Map.of()).getOrDefault(process, full));
    }

    private boolean caughtUp(TaskId task, String process) {
        return behind(task, process) <= settings.acceptableRecoveryLag();
    }

    private boolean caughtUpElsewhere(TaskId task, String process) {
        return restoreRecords.applyAsLong(task) <= settings.acceptableRecoveryLag()
                || lag.getOrDefault(task, Map.of()).keySet().stream()
                        .anyMatch(p -> !p.equals(process) && caughtUp(task, p));
    }

    private long lagOn(TaskId task, String member) {
        return behind(task, process(member));
    }

    /**
     * Sticky and balanced, ignoring how far behind copies are except to choose among them. Tasks with
     * state are balanced among themselves first, then the stateless ones fill each member up to its share
     * of all tasks: balancing the count alone could leave one instance every store (and every restore) and
     * another only stateless work.
     */
    private Map<String, Set<TaskId>> balanced() {
        Map<String, Set<TaskId>> tasksOf = emptyPerMember();
        Set<TaskId> placed = new HashSet<>();
        Set<TaskId> statefulTasks = new TreeSet<>();
        all.stream().filter(stateful).forEach(statefulTasks::add);
        balance(statefulTasks, tasksOf, placed);
        balance(all, tasksOf, placed);
        return tasksOf;
    }

    /**
     * Places each task of {@code tasks} not yet {@code placed}, no member then holding more than {@code
     * ceil(tasks / members)} tasks in all: first with the member that owns it, then elsewhere.
     */
    private void balance(Set<TaskId> tasks, Map<String, Set<TaskId>> tasksOf, Set<TaskId> placed) {
        int capacity = (tasks.size() + members.size() - 1) / Math.max(1, members.size());
        members.forEach((member, subscription) -> {
            String process = process(member);
            Set<TaskId> mine = of(tasksOf, member);
            // Over its share, a member gives up first the tasks another instance can take without a restore.
            List<TaskId> owned = subscription.owned().stream()
                    .filter(tasks::contains)
                    .sorted(Comparator.comparing((TaskId t) -> caughtUpElsewhere(t, process))
                            .thenComparing(t -> t))
                    .toList();
            for (TaskId previous : owned) {
                if (mine.size() < capacity && placed.add(previous)) {
                    mine.add(previous);
                }
            }
        });
        Comparator<String> leastLoaded =
                Comparator.<String>comparingInt(m -> of(tasksOf, m).size()).thenComparing(m -> m);
        // Tasks with a copy first, while their keepers still have room.
        List<TaskId> unplaced = tasks.stream()
                .filter(t -> !placed.contains(t))
                .sorted(Comparator.comparing((TaskId t) -> !holder.containsKey(t))
                        .thenComparing(t -> t))
                .toList();
        for (TaskId task : unplaced) {
            List<String> allowed = allowed(task, tasksOf.keySet());
            String member = allowed.stream()
                    .filter(m ->
                            Objects.requireNonNull(members.get(m)).standbys().contains(task)
                                    && of(tasksOf, m).size() < capacity)
                    .min(Comparator.<String>comparingLong(m -> lagOn(task, m)).thenComparing(leastLoaded))
                    .orElseGet(() -> allowed.stream().min(leastLoaded).orElseThrow());
            of(tasksOf, member).add(task);
            placed.add(task);
        }
    }

    /** The members that may hold {@code task}: on an instance that holds it, only the thread holding it. */
    private List<String> allowed(TaskId task, Set<String> candidates) {
        Map<String, String> holders = holder.getOrDefault(task, Map.of());
        return candidates.stream()
                .filter(m -> {
                    String h = holders.get(process(m));
                    return h == null || h.equals(m);
                })
                .toList();
    }

    /**
     * Moves back each stateful task the balance put where its state is not caught up, to a caught-up
     * instance if there is one, and warms up the balance's choice instead, within the warm-up limit.
     */
    private void keepWhereCaughtUp(Map<String, Set<TaskId>> active, Map<String, Set<TaskId>> warmups) {
        int warmupsLeft = settings.maxWarmupReplicas();
        Map<TaskId, String> target = new TreeMap<>();
        active.forEach((member, tasks) -> tasks.forEach(t -> target.put(t, member)));
        for (Map.Entry<TaskId, String> e : target.entrySet()) {
            TaskId task = e.getKey();
            String chosen = e.getValue();
            if (caughtUp(task, process(chosen))) {
                continue;
            }
            Map<String, String> holders = holder.getOrDefault(task, Map.of());
            String keeper = holders.entrySet().stream()
                    .filter(h -> caughtUp(task, h.getKey()))
                    .map(Map.Entry::getValue)
                    .min(Comparator.<String>comparingInt(m -> Objects.requireNonNull(members.get(m))
                                            .owned()
                                            .contains(task)
                                    ? 0
                                    : 1)
                            .thenComparingLong(m -> lagOn(task, m))
                            .thenComparingInt(m -> of(active, m).size())
                            .thenComparing(m -> m))
                    .orElse(null);
            if (keeper == null) {
                continue;
            }
            of(active, chosen).remove(task);
            of(active, keeper).add(task);
            if (warmupsLeft > 0) {
                of(warmups, chosen).add(task);
                warmupsLeft--;
            }
        }
    }

    private Map<String, Set<TaskId>> standbys(Map<String, Set<TaskId>> active, Map<String, Set<TaskId>> warmups) {
        Map<String, Set<TaskId>> copies = emptyPerMember();
        if (settings.standbyReplicas() == 0) {
            return copies;
        }
        Map<TaskId, String> activeProcess = new HashMap<>();
        active.forEach((member, tasks) -> tasks.forEach(t -> activeProcess.put(t, process(member))));
        Map<TaskId, String> warmupProcess = new HashMap<>();
        warmups.forEach((member, tasks) -> tasks.forEach(t -> warmupProcess.put(t, process(member))));
        Map<String, Integer> copiesOfProcess = new HashMap<>();
        // Per keeping instance, per active instance: the copies it keeps of that instance's tasks.
        Map<String, Map<String, Integer>> copiesFrom = new HashMap<>();
        Map<String, Integer> load = new HashMap<>();
        active.forEach((member, tasks) ->
                load.put(member, tasks.size() + of(warmups, member).size()));
        for (TaskId task : all) {
            Set<String> used = new HashSet<>();
            used.add(activeProcess.get(task));
            if (warmupProcess.containsKey(task)) {
                used.add(warmupProcess.get(task));
            }
            Map<String, String> holders = holder.getOrDefault(task, Map.of());
            for (int r = 0; r < settings.standbyReplicas(); r++) {
                String process = processOf.values().stream()
                        .distinct()
                        .filter(p -> !used.contains(p))
                        .min(Comparator.<String>comparingInt(p -> holders.containsKey(p) ? 0 : 1)
                                .thenComparingInt(p ->
                                        copiesFrom.getOrDefault(p, Map.of()).getOrDefault(activeProcess.get(task), 0))
                                .thenComparingInt(p -> copiesOfProcess.getOrDefault(p, 0))
                                .thenComparing(p -> p))
                        .orElse(null);
                if (process == null) {
                    break;
                }
                used.add(process);
                copiesOfProcess.merge(process, 1, Integer::sum);
                copiesFrom
                        .computeIfAbsent(process, k -> new HashMap<>())
                        .merge(activeProcess.get(task), 1, Integer::sum);
                String member = holders.get(process);
                if (member == null) {
                    member = processOf.entrySet().stream()
                            .filter(e -> e.getValue().equals(process))
                            .map(Map.Entry::getKey)
                            .min(Comparator.<String>comparingInt(m -> load.getOrDefault(m, 0))
                                    .thenComparing(m -> m))
                            .orElseThrow();
                }
                of(copies, member).add(task);
                load.merge(member, 1, Integer::sum);
            }
        }
        return copies;
    }
}
