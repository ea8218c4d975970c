package io.weir.streams.internals.runtime;

import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.topology.TaskId;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Set;

/**
 * What a stream thread does as its tasks come and go: the group consumer's rebalance callbacks, which
 * run inside {@code poll()} on the thread and share its producer and transaction, and the closing of
 * tasks, cleanly (committed first) or dirty (their uncommitted work dropped) when they migrated, the
 * group took them, or the thread stops.
 *
 * <p>Rebalances are cooperative: only the tasks that move are revoked. A revocation commits every task
 * (one transaction covers them all) and closes the revoked ones. A commit refused because the tasks
 * migrated (a fenced producer, a stale generation) drops all uncommitted work here instead: an
 * exception thrown from a callback would come out of {@code poll()} wrapped, outside the thread's
 * recovery, and fail the thread; the group is rebalancing anyway, and the thread rejoins with no tasks.
 *
 * <p>Used by its stream thread only.
 */
final class RebalanceCallbacks implements ConsumerRebalanceListener {

    private static final Logger log = LoggerFactory.getLogger(RebalanceCallbacks.class);

    private final String threadName;
    private final TaskManager tasks;
    private final ThreadCommitter committer;
    private final ThreadProducer producer;
    private final AssignorContext assignor;
    private final Liveness liveness;
    private final Counter taskLosses;
    /** Called when every assigned task runs (none restores). */
    private final Runnable onRunning;
    /** What taking an assignment failed on, in the callback; thrown by the thread after the poll that ran it. */
    private @Nullable RuntimeException assignFailure;

    RebalanceCallbacks(
            String threadName,
            TaskManager tasks,
            ThreadCommitter committer,
            ThreadProducer producer,
            AssignorContext assignor,
            Liveness liveness,
            Counter taskLosses,
            Runnable onRunning) {
        this.threadName = threadName;
        this.tasks = tasks;
        this.committer = committer;
        this.producer = producer;
        this.assignor = assignor;
        this.liveness = liveness;
        this.taskLosses = taskLosses;
        this.onRunning = onRunning;
    }

    /** Commits every task and closes those that read a revoked partition (see the class docs for a refused commit). */
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        Set<TaskId> revoked = tasks.reading(partitions);
        if (revoked.isEmpty()) {
            return;
        }
        if (!tasks.running().isEmpty()) {
            try {
                committer.commit();
            } catch (RuntimeException e) {
                if (!tasksMigrated(e)) {
                    throw e;
                }
                dropTasks(e);
                return;
            }
        }
        closeTasks(revoked);
        log.info("Thread {} handed over tasks {}", threadName, revoked);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (assignor.assignmentError() != null) {
            return;
        }
        try {
            if (!producer.transactionsInitialized()) {
                producer.initTransactions();
            }
            tasks.assign(assignor.assignedTasks(), assignor.assignedStandbys(), partitions);
        } catch (RuntimeException e) {
            // Thrown from here it would come out of poll() wrapped in Kafka's "User rebalance callback throws
            // an error": kept, and thrown as it is after the poll.
            assignFailure = e;
            return;
        }
        publishOwned();
        if (!tasks.restoring()) {
            onRunning.run();
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        if (committer.uncommitted()) {
            lostTasks(new IllegalStateException("the group took its partitions: it missed a rebalance"));
        }
        closeTasksDirty();
    }

    /** What taking the last assignment failed on, or null. */
    @Nullable
    RuntimeException assignFailure() {
        return assignFailure;
    }

    /** Whether a commit failed because another member owns some of the tasks now. */
    static boolean tasksMigrated(RuntimeException e) {
        return e instanceof ProducerFencedException
                || e instanceof InvalidProducerEpochException
                || e instanceof CommitFailedException
                || e instanceof RebalanceInProgressException
                || e instanceof IllegalGenerationException
                || e instanceof UnknownMemberIdException;
    }

    /** Closes the tasks without committing and replaces the producer, whose transactions may be fenced. */
    void dropTasks(RuntimeException cause) {
        log.warn("Thread {} lost its tasks ({}); closing them dirty", threadName, cause.toString());
        lostTasks(cause);
        closeTasksDirty();
        producer.replace();
    }

    /** Counts a loss of the tasks' uncommitted work, for the escalation of repeated ones ({@link Liveness}). */
    private void lostTasks(Throwable cause) {
        taskLosses.increment();
        liveness.lost(cause, producer.transactionAgeMs());
    }

    /** Tells the assignor what this thread holds, for its next subscription. */
    private void publishOwned() {
        assignor.owned(tasks.owned());
    }

    /** Closes every running or restoring task, committed before. */
    void closeTasks() {
        closeTasks(tasks.owned());
    }

    /** Closes the given running or restoring tasks and forgets what they consumed. */
    private void closeTasks(Set<TaskId> ids) {
        tasks.close(ids);
        committer.retain(tasks.partitions());
        publishOwned();
    }

    /** After a lost assignment or a failed commit: drop uncommitted work; the stores keep only what was committed. */
    void closeTasksDirty() {
        tasks.closeAllDirty();
        committer.forget();
        publishOwned();
        producer.abortTransaction();
    }
}
