package io.weir.streams.tools;

import io.weir.streams.internals.reset.Plan;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an {@link ApplicationReset} does, or did: the members it removes, the input partitions' offsets
 * from and to, the internal topics it deletes and the local state it clears; and, when it may not run,
 * why. {@link #toString()} prints it for a person. Immutable.
 */
public final class ResetPlan {

    private final Plan plan;
    private final boolean dryRun;

    ResetPlan(Plan plan, boolean dryRun) {
        this.plan = plan;
        this.dryRun = dryRun;
    }

    Plan plan() {
        return plan;
    }

    /**
     * The application reset.
     *
     * @return its application id
     */
    public String applicationId() {
        return plan.applicationId();
    }

    /**
     * Whether the reset may not run ({@link #refusals()} says why).
     *
     * @return true when refused
     */
    public boolean refused() {
        return plan.refused();
    }

    /**
     * Why the reset may not run: members alive in the group, an instance holding the state directory, a
     * topic that does not exist, ...
     *
     * @return one sentence per reason; empty when the reset may run
     */
    public List<String> refusals() {
        return plan.refusals();
    }

    /**
     * The members of the group, described for a person; the reset removes them first when forced, and is
     * refused otherwise.
     *
     * @return the members; empty when the group has none
     */
    public List<String> members() {
        return plan.members();
    }

    /**
     * The application's internal topics (changelogs and repartition topics) the reset deletes.
     *
     * @return the topics' names, sorted
     */
    public List<String> topicsToDelete() {
        return plan.topicsToDelete();
    }

    /**
     * The offsets the group will have committed on the input (and intermediate) partitions.
     *
     * @return each partition's new offset, input partitions first
     */
    public Map<TopicPartition, Long> newOffsets() {
        return plan.newOffsets();
    }

    /**
     * The local state directory ({@code <state.dir>/<application.id>}) the reset clears, when one was named.
     *
     * @return the directory, or empty when local state is left alone
     */
    public Optional<Path> stateDirectory() {
        return Optional.ofNullable(plan.stateDirectory());
    }

    /**
     * The entries of {@link #stateDirectory()} the reset deletes: task directories, global tables' state;
     * the lock file and the instance's identity are kept.
     *
     * @return the entries' names, sorted; empty when there is nothing to clear
     */
    public List<String> stateEntries() {
        return plan.stateEntries();
    }

    /**
     * What an operator should know that does not stop the reset: which input topics were found, topics kept
     * because another application may own them, offsets brought within a partition's range, ...
     *
     * @return one sentence per note
     */
    public List<String> notes() {
        return plan.notes();
    }

    /**
     * The plan for a person, step by step, with every topic, partition (offset from and to) and directory.
     *
     * @return the printable plan
     */
    @Override
    public String toString() {
        return plan.render(dryRun);
    }
}
