package io.weir.streams.internals.runtime;

import io.weir.streams.internals.task.TaskId;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the group's tasks and their standby copies go: the decision of {@link WeirPartitionAssignor},
 * from what each member holds, with no Kafka in sight.
 *
 * <ul>
 *   <li><b>Active tasks</b>, per member (thread): each member keeps the tasks it holds up to its fair
 *       share, {@code ceil(tasks / members)}. The remaining tasks are placed next, those with a standby
 *       copy in the group first: each goes to the least loaded member keeping a copy of it (its state
 *       is nearly caught up) if that member is under its share; else to the least loaded member. (Not
 *       over the share: a task withheld for one round of a cooperative move looks like one whose owner
 *       left, and would go back to its old owner's copy.)
 *   <li><b>Standby copies</b>, per instance (members with one process id): up to {@code standbys} per
 *       task, each on another instance than the task's active and than each other, so that losing an
 *       instance never loses every copy. An instance that already holds the task keeps its copy; the
 *       others go to the instances with the fewest copies of the same instance's tasks, then the fewest
 *       copies: a lost instance's tasks then fail over to several instances, each within its share.
 *   <li>Within one instance, a task held by one of its threads goes to that same thread again, active or
 *       standby: two threads of one instance never open one task's state directory at once.
 * </ul>
 */
final class TaskPlacement {

    private TaskPlacement() {}

    /** Each member's active tasks and standby copies; every member is a key of both. */
    record Placement(Map<String, Set<TaskId>> active, Map<String, Set<TaskId>> standbys) {}

    static Placement place(Set<TaskId> all, Map<String, AssignorMessages.Subscription> members, int standbys) {
        Map<String, String> processOf = new TreeMap<>();
        members.forEach((member, s) -> processOf.put(member, s.process().isEmpty() ? member : s.process()));
        // Per task, per instance: the thread that holds it now (active or standby).
        Map<TaskId, Map<String, String>> holder = new HashMap<>();
        members.forEach((member, s) -> {
            for (Set<TaskId> held : List.of(s.owned(), s.standbys())) {
                held.forEach(t ->
                        holder.computeIfAbsent(t, k -> new HashMap<>()).putIfAbsent(processOf.get(member), member));
            }
        });
        Map<String, Set<TaskId>> active = active(all, members, processOf, holder);
        Map<String, Set<TaskId>> copies = new TreeMap<>();
        members.keySet().forEach(m -> copies.put(m, new TreeSet<>()));
        if (standbys > 0) {
            Map<TaskId, String> activeProcess = new HashMap<>();
            active.forEach((member, tasks) -> tasks.forEach(t -> activeProcess.put(t, processOf.get(member))));
            Map<String, Integer> copiesOfProcess = new HashMap<>();
            // Per keeping instance, per active instance: the copies it keeps of that instance's tasks.
            Map<String, Map<String, Integer>> copiesFrom = new HashMap<>();
            Map<String, Integer> load = new HashMap<>();
            active.forEach((member, tasks) -> load.put(member, tasks.size()));
            for (TaskId task : all) {
                Set<String> used = new HashSet<>();
                used.add(activeProcess.get(task));
                Map<String, String> holders = holder.getOrDefault(task, Map.of());
                for (int r = 0; r < standbys; r++) {
                    String process = processOf.values().stream()
                            .distinct()
                            .filter(p -> !used.contains(p))
                            .min(Comparator.<String>comparingInt(p -> holders.containsKey(p) ? 0 : 1)
                                    .thenComparingInt(p -> copiesFrom
                                            .getOrDefault(p, Map.of())
                                            .getOrDefault(activeProcess.get(task), 0))
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
                    copies.computeIfAbsent(member, k -> new TreeSet<>()).add(task);
                    load.merge(member, 1, Integer::sum);
                }
            }
        }
        return new Placement(active, copies);
    }

    private static Map<String, Set<TaskId>> active(
            Set<TaskId> all,
            Map<String, AssignorMessages.Subscription> members,
            Map<String, String> processOf,
            Map<TaskId, Map<String, String>> holder) {
        int capacity = (all.size() + members.size() - 1) / Math.max(1, members.size());
        Map<String, Set<TaskId>> tasksOf = new TreeMap<>();
        Set<TaskId> placed = new HashSet<>();
        members.forEach((member, subscription) -> {
            Set<TaskId> mine = new TreeSet<>();
            for (TaskId previous : subscription.owned()) {
                if (mine.size() < capacity && all.contains(previous) && placed.add(previous)) {
                    mine.add(previous);
                }
            }
            tasksOf.put(member, mine);
        });
        Comparator<String> leastLoaded = Comparator.<String>comparingInt(
                        m -> tasksOf.getOrDefault(m, Set.of()).size())
                .thenComparing(m -> m);
        // Tasks with a standby copy first, while their keepers still have room.
        List<TaskId> unplaced = all.stream()
                .filter(t -> !placed.contains(t))
                .sorted(Comparator.comparing((TaskId t) -> members.values().stream()
                                .noneMatch(sub -> sub.standbys().contains(t)))
                        .thenComparing(t -> t))
                .toList();
        for (TaskId task : unplaced) {
            Map<String, String> holders = holder.getOrDefault(task, Map.of());
            List<String> allowed = tasksOf.keySet().stream()
                    .filter(m -> {
                        String h = holders.get(processOf.get(m));
                        return h == null || h.equals(m);
                    })
                    .toList();
            String member = allowed.stream()
                    .filter(m ->
                            Objects.requireNonNull(members.get(m)).standbys().contains(task)
                                    && tasksOf.getOrDefault(m, Set.of()).size() < capacity)
                    .min(leastLoaded)
                    .orElseGet(() -> allowed.stream().min(leastLoaded).orElseThrow());
            tasksOf.computeIfAbsent(member, k -> new TreeSet<>()).add(task);
        }
        return tasksOf;
    }
}
