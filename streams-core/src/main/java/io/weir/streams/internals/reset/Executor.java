package io.weir.streams.internals.reset;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs a reset: plans it, refuses it when the plan says so, takes the local state directory's lock (so no
 * instance starts on it meanwhile), removes the group's members when forced (and refuses when they come
 * back: they are alive), commits the input topics' new offsets, deletes the group's offsets on the internal
 * topics and the topics themselves (waiting until the cluster no longer lists them, so that an instance
 * started next makes them anew), and clears the local state. The offsets come first: a reset that fails
 * after them is run again whole, and one that fails before leaves everything as it was.
 */
public final class Executor {

    private Executor() {}

    /**
     * Resets the application as {@code request} asks; returns the plan it carried out.
     *
     * @throws ResetRefused when the plan is refused
     * @throws ResetFailedException when a step fails (the message says which)
     */
    public static Plan run(Admin admin, ResetRequest request) {
        Plan plan = Planner.plan(admin, request, false);
        if (plan.refused()) {
            throw new ResetRefused(plan);
        }
        KafkaCalls kafka = new KafkaCalls(admin, request.timeout());
        Path directory = request.applicationStateDir();
        LocalState.Lock lock;
        try {
            lock = directory == null ? null : LocalState.lock(directory);
        } catch (IllegalStateException e) {
            throw new ResetRefused(refusing(plan, e.getMessage()));
        }
        try {
            if (plan.removeMembers()) {
                kafka.removeAllMembers(request.applicationId());
                awaitEmpty(kafka, plan, request);
            }
            kafka.commitOffsets(request.applicationId(), plan.newOffsets());
            kafka.deleteOffsets(request.applicationId(), Set.copyOf(plan.internalOffsets()));
            kafka.deleteTopics(plan.topicsToDelete());
            if (lock != null) {
                lock.clear();
            }
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
        return plan;
    }

    /**
     * Waits until the group, its members removed, is empty (the coordinator takes offsets from outside the
     * group only then); refuses when members come back: instances are running.
     */
    private static void awaitEmpty(KafkaCalls kafka, Plan plan, ResetRequest request) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        while (true) {
            ConsumerGroupDescription group = kafka.describeGroup(request.applicationId());
            if (!group.members().isEmpty()) {
                throw new ResetRefused(refusing(
                        plan,
                        group.members().size() + " member(s) are in the group again "
                                + "after their removal: instances of the application are running. Stop them first"));
            }
            if (group.groupState() == GroupState.EMPTY || group.groupState() == GroupState.DEAD) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ResetFailedException(
                        "The group " + request.applicationId() + " has no members but is still " + group.groupState()
                                + " after " + request.timeout().toSeconds() + " s; run the reset again",
                        null);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ResetFailedException("Interrupted while waiting for the group to empty", e);
            }
        }
    }

    private static Plan refusing(Plan plan, @Nullable String why) {
        List<String> refusals = new ArrayList<>(plan.refusals());
        refusals.add(String.valueOf(why));
        return new Plan(
                plan.applicationId(),
                plan.groupState(),
                plan.members(),
                plan.removeMembers(),
                plan.topicsToDelete(),
                plan.internalOffsets(),
                plan.position(),
                plan.inputMoves(),
                plan.intermediateMoves(),
                plan.stateDirectory(),
                plan.stateEntries(),
                plan.notes(),
                refusals);
    }
}
