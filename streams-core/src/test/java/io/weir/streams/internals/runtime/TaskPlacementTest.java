package io.weir.streams.internals.runtime;

import io.weir.streams.internals.topology.TaskId;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link TaskPlacement}, one test each. */
class TaskPlacementTest {

    private static Set<TaskId> tasks(int n) {
        Set<TaskId> all = new TreeSet<>();
        for (int p = 0; p < n; p++) {
            all.add(new TaskId(0, p));
        }
        return all;
    }

    private static final long ACCEPTABLE_LAG = 10;

    /** A member whose copies are all caught up. */
    private static AssignorMessages.Subscription member(String process, Set<TaskId> owned, Set<TaskId> standbys) {
        Map<TaskId, Long> lags = new TreeMap<>();
        standbys.forEach(t -> lags.put(t, 0L));
        return lagging(process, owned, lags);
    }

    private static AssignorMessages.Subscription lagging(String process, Set<TaskId> owned, Map<TaskId, Long> copies) {
        return new AssignorMessages.Subscription(owned, copies, null, process);
    }

    /** Every task's changelog larger than the acceptable lag, two warm-ups at most. */
    private static TaskPlacement.Placement place(
            Set<TaskId> all, Map<String, AssignorMessages.Subscription> members, int standbys) {
        return place(all, members, standbys, 2);
    }

    private static TaskPlacement.Placement place(
            Set<TaskId> all, Map<String, AssignorMessages.Subscription> members, int standbys, int warmups) {
        return TaskPlacement.place(
                all, t -> true, members, new PlacementSettings(standbys, warmups, ACCEPTABLE_LAG), t -> Long.MAX_VALUE);
    }

    private static AssignorMessages.Subscription fresh(String process) {
        return member(process, Set.of(), Set.of());
    }

    private static TaskId t(int p) {
        return new TaskId(0, p);
    }

    /** The instance (process) each member of {@code members} belongs to. */
    private static Map<String, String> processes(Map<String, AssignorMessages.Subscription> members) {
        Map<String, String> out = new TreeMap<>();
        members.forEach((m, s) -> out.put(m, s.process()));
        return out;
    }

    @Test
    void everyTaskIsActiveOnExactlyOneMemberAndTheLoadIsBalanced() {
        Map<String, AssignorMessages.Subscription> members = Map.of("a", fresh("A"), "b", fresh("B"), "c", fresh("C"));
        TaskPlacement.Placement p = place(tasks(7), members, 0);
        Set<TaskId> seen = new HashSet<>();
        p.active().values().forEach(ts -> ts.forEach(t -> assertTrue(seen.add(t), "twice: " + t)));
        assertEquals(tasks(7), seen);
        p.active().values().forEach(ts -> assertTrue(ts.size() == 2 || ts.size() == 3, p.toString()));
        p.standbys().values().forEach(ts -> assertTrue(ts.isEmpty()));
    }

    @Test
    void tasksWithStateAreBalancedAmongThemselvesBeforeTheStatelessOnes() {
        // a ran all six tasks alone: 0_0..0_2 stateless, 1_0..1_2 with small changelogs; b joins.
        Set<TaskId> all = new TreeSet<>(tasks(3));
        Set<TaskId> stateful = Set.of(new TaskId(1, 0), new TaskId(1, 1), new TaskId(1, 2));
        all.addAll(stateful);
        Map<String, AssignorMessages.Subscription> members =
                new TreeMap<>(Map.of("a", member("A", all, Set.of()), "b", fresh("B")));
        TaskPlacement.Placement p = TaskPlacement.place(
                all, stateful::contains, members, new PlacementSettings(0, 2, ACCEPTABLE_LAG), t -> 0L);
        for (String m : List.of("a", "b")) {
            long held = p.active().get(m).stream().filter(stateful::contains).count();
            assertTrue(held == 1 || held == 2, m + " holds its share of the state: " + p);
            assertEquals(3, p.active().get(m).size(), p.toString());
        }
    }

    @Test
    void aStandbyIsNeverOnTheInstanceOfItsActiveNorTwiceOnOneInstance() {
        Map<String, AssignorMessages.Subscription> members =
                new TreeMap<>(Map.of("a1", fresh("A"), "a2", fresh("A"), "b1", fresh("B"), "c1", fresh("C")));
        TaskPlacement.Placement p = place(tasks(8), members, 2);
        Map<String, String> processOf = processes(members);
        for (TaskId task : tasks(8)) {
            String activeProcess = p.active().entrySet().stream()
                    .filter(e -> e.getValue().contains(task))
                    .map(e -> processOf.get(e.getKey()))
                    .findFirst()
                    .orElseThrow();
            Set<String> standbyProcesses = new HashSet<>();
            p.standbys().forEach((m, ts) -> {
                if (ts.contains(task)) {
                    assertTrue(standbyProcesses.add(processOf.get(m)), "two copies of " + task + " on one instance");
                }
            });
            assertFalse(standbyProcesses.contains(activeProcess), "a copy of " + task + " beside its active");
            assertEquals(2, standbyProcesses.size(), "two copies of " + task + " with three instances");
        }
    }

    @Test
    void withFewerOtherInstancesThanReplicasEachTaskGetsAsManyCopiesAsThereAreOtherInstances() {
        TaskPlacement.Placement p = place(tasks(4), Map.of("a", fresh("A"), "b", fresh("B")), 3);
        assertEquals(4, p.standbys().values().stream().mapToInt(Set::size).sum());
        TaskPlacement.Placement alone = place(tasks(4), Map.of("a", fresh("A")), 1);
        assertTrue(alone.standbys().get("a").isEmpty());
    }

    @Test
    void aTaskWhoseOwnerLeftGoesToTheInstanceKeepingItsStandbyCopy() {
        // c held task 0 active and left; b keeps the copy of task 0 and has room.
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>(Map.of(
                "a", member("A", Set.of(t(1), t(2)), Set.of()),
                "b", member("B", Set.of(t(3)), Set.of(t(0)))));
        TaskPlacement.Placement p = place(tasks(4), members, 1);
        assertTrue(p.active().get("b").contains(t(0)), p.toString());
    }

    @Test
    void theCopiesOfOneInstancesTasksGoToDifferentInstances() {
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>(Map.of(
                "a", member("A", Set.of(t(0), t(1)), Set.of()),
                "b", member("B", Set.of(t(2), t(3)), Set.of()),
                "c", member("C", Set.of(t(4), t(5)), Set.of())));
        TaskPlacement.Placement p = place(tasks(6), members, 1);
        for (String owner : Set.of("a", "b", "c")) {
            Set<String> keepers = new TreeSet<>();
            p.active()
                    .get(owner)
                    .forEach(task -> p.standbys().forEach((m, copies) -> {
                        if (copies.contains(task)) {
                            keepers.add(m);
                        }
                    }));
            assertEquals(2, keepers.size(), "the copies of " + owner + "'s two tasks on two instances: " + p);
        }
    }

    /** a and b each run three tasks and keep copies of the other's; c joins with nothing. */
    private static Map<String, AssignorMessages.Subscription> scaleOut(AssignorMessages.Subscription c) {
        return new TreeMap<>(Map.of(
                "a", member("A", Set.of(t(0), t(1), t(2)), Set.of(t(3), t(4), t(5))),
                "b", member("B", Set.of(t(3), t(4), t(5)), Set.of(t(0), t(1), t(2))),
                "c", c));
    }

    @Test
    void aNewInstanceWarmsUpCopiesOfItsShareWhileTheTasksStayWhereTheirStateIs() {
        TaskPlacement.Placement p = place(tasks(6), scaleOut(fresh("C")), 1);
        assertEquals(Set.of(t(0), t(1), t(2)), p.active().get("a"), p.toString());
        assertEquals(Set.of(t(3), t(4), t(5)), p.active().get("b"), p.toString());
        assertEquals(Set.of(t(2), t(5)), p.warmups().get("c"), "c warms up its share: " + p);
        assertTrue(p.standbys().get("c").containsAll(p.warmups().get("c")), "a warm-up is a copy to keep");
    }

    @Test
    void aWarmupThatCaughtUpTakesItsTask() {
        TaskPlacement.Placement p = place(tasks(6), scaleOut(lagging("C", Set.of(), Map.of(t(2), 5L, t(5), 3L))), 1);
        assertEquals(Set.of(t(2), t(5)), p.active().get("c"), p.toString());
        assertTrue(p.warmups().values().stream().allMatch(Set::isEmpty), "nothing left to warm up: " + p);
    }

    @Test
    void aWarmupStillBehindKeepsWarmingUp() {
        TaskPlacement.Placement p = place(tasks(6), scaleOut(lagging("C", Set.of(), Map.of(t(2), 500L, t(5), 3L))), 1);
        assertEquals(Set.of(t(5)), p.active().get("c"), p.toString());
        assertEquals(Set.of(t(2)), p.warmups().get("c"), p.toString());
        assertTrue(p.active().get("a").contains(t(2)), p.toString());
    }

    @Test
    void warmupsInTheGroupAreLimitedByMaxWarmupReplicas() {
        TaskPlacement.Placement p = place(tasks(6), scaleOut(fresh("C")), 1, 1);
        assertEquals(1, p.warmups().values().stream().mapToInt(Set::size).sum(), p.toString());
        assertEquals(6, p.active().get("a").size() + p.active().get("b").size(), "no task moves unwarmed: " + p);
    }

    @Test
    void tasksWhoseWholeChangelogIsWithinTheAcceptableLagMoveAtOnce() {
        for (long restore : new long[] {0, ACCEPTABLE_LAG}) {
            TaskPlacement.Placement p = TaskPlacement.place(
                    tasks(6),
                    t -> true,
                    scaleOut(fresh("C")),
                    new PlacementSettings(1, 2, ACCEPTABLE_LAG),
                    t -> restore);
            assertEquals(2, p.active().get("c").size(), "scaling out moves small tasks at once: " + p);
            assertTrue(p.warmups().values().stream().allMatch(Set::isEmpty), p.toString());
        }
    }

    @Test
    void aLostTaskGoesWhereItsStateIsCaughtUpEvenOverThatInstancesShare() {
        // c ran tasks 4 and 5 and died; a keeps both copies and is at its share of three, b is not.
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>(Map.of(
                "a", member("A", Set.of(t(0), t(1), t(2)), Set.of(t(4), t(5))),
                "b", member("B", Set.of(t(3)), Set.of())));
        TaskPlacement.Placement p = place(tasks(6), members, 1);
        assertEquals(Set.of(t(0), t(1), t(2), t(4), t(5)), p.active().get("a"), "no full restore: " + p);
        assertEquals(Set.of(t(4), t(5)), p.warmups().get("b"), "b warms up to take its share: " + p);
    }

    @Test
    void aTaskNoInstanceIsCaughtUpOnGoesWhereTheBalancePutsIt() {
        // a keeps a copy of task 1 far behind and is at its share; nobody runs task 1.
        Map<String, AssignorMessages.Subscription> members =
                new TreeMap<>(Map.of("a", lagging("A", Set.of(t(0)), Map.of(t(1), 1_000_000L)), "b", fresh("B")));
        TaskPlacement.Placement p = place(tasks(2), members, 0);
        assertEquals(Set.of(t(1)), p.active().get("b"), p.toString());
        assertTrue(p.warmups().values().stream().allMatch(Set::isEmpty), p.toString());
    }

    @Test
    void tasksStayWithTheirOwnersAndCopiesWithTheirKeepers() {
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>(Map.of(
                "a", member("A", Set.of(t(0), t(1)), Set.of(t(2), t(3))),
                "b", member("B", Set.of(t(2), t(3)), Set.of(t(0), t(1)))));
        TaskPlacement.Placement p = place(tasks(4), members, 1);
        assertEquals(Set.of(t(0), t(1)), p.active().get("a"));
        assertEquals(Set.of(t(2), t(3)), p.active().get("b"));
        assertEquals(Set.of(t(2), t(3)), p.standbys().get("a"));
        assertEquals(Set.of(t(0), t(1)), p.standbys().get("b"));
    }

    @Test
    void aTaskHeldByOneThreadOfAnInstanceGoesToThatThreadAgain() {
        // Thread a2 keeps a copy of task 0; its instance A becomes the task's active (its owner left).
        Map<String, AssignorMessages.Subscription> members = new TreeMap<>(Map.of(
                "a1", member("A", Set.of(), Set.of()),
                "a2", member("A", Set.of(t(1)), Set.of(t(0)))));
        TaskPlacement.Placement p = place(tasks(2), members, 0);
        assertTrue(p.active().get("a2").contains(t(0)), "not opened by a second thread at once: " + p);
    }
}
