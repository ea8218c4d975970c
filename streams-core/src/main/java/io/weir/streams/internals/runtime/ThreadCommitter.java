package io.weir.streams.internals.runtime;

import io.weir.streams.internals.metrics.Timer;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commit of a stream thread's running tasks, one for all of them, and the input offsets it commits:
 * the next offset of each partition the thread processed since the last commit, with the event time the
 * partition reached as metadata ({@link StreamTask#committedTime}). Under exactly-once: the tasks'
 * changelog records are sent, the offsets go into the transaction, the transaction commits, and only
 * then do the stores receive their writes with the changelog offsets they match. Under at-least-once
 * the producer is flushed, its send failures checked, and only then the offsets committed with {@code
 * commitSync}.
 *
 * <p>Used by its stream thread only, which decides when to commit and what to do when a commit fails.
 */
final class ThreadCommitter {

    private final TopologySpec topology;
    private final String applicationId;
    private final boolean exactlyOnce;
    private final TaskManager tasks;
    private final Consumer<byte[], byte[]> consumer;
    private final ThreadProducer producer;
    private final Liveness liveness;
    private final RepartitionPurger purger;
    private final Timer commitTimer;

    /** Per input partition processed since the last commit, the next offset to read. */
    private final Map<TopicPartition, Long> consumed = new HashMap<>();

    ThreadCommitter(
            TopologySpec topology,
            String applicationId,
            boolean exactlyOnce,
            TaskManager tasks,
            Consumer<byte[], byte[]> consumer,
            ThreadProducer producer,
            Liveness liveness,
            RepartitionPurger purger,
            Timer commitTimer) {
        this.topology = topology;
        this.applicationId = applicationId;
        this.exactlyOnce = exactlyOnce;
        this.tasks = tasks;
        this.consumer = consumer;
        this.producer = producer;
        this.liveness = liveness;
        this.purger = purger;
        this.commitTimer = commitTimer;
    }

    /** Notes that the records of {@code partition} before {@code next} were processed. */
    void processed(TopicPartition partition, long next) {
        consumed.put(partition, next);
    }

    /** Whether there is work the next commit would make durable: offsets to commit, or an open transaction. */
    boolean uncommitted() {
        return !consumed.isEmpty() || producer.transactionOpen();
    }

    /** Forgets the offsets of partitions no running task reads any more. */
    void retain(Set<TopicPartition> partitions) {
        consumed.keySet().retainAll(partitions);
    }

    /** Forgets every offset: the tasks' uncommitted work was dropped. */
    void forget() {
        consumed.clear();
    }

    /** Commits every running task: see the class docs for the order of the steps. */
    void commit() {
        if (tasks.running().isEmpty() || (consumed.isEmpty() && !producer.transactionOpen())) {
            return;
        }
        long start = System.nanoTime();
        List<PreparedTask> prepared = new ArrayList<>();
        tasks.running().forEach((id, task) -> prepared.add(new PreparedTask(id, task, task.prepareCommit())));
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<StreamTask, Map<TopicPartition, String>> times = new HashMap<>();
        consumed.forEach((tp, next) -> {
            String time = times.computeIfAbsent(tasks.taskOf(tp), StreamTask::committedTime)
                    .get(tp);
            offsets.put(tp, new OffsetAndMetadata(next, time));
        });
        if (exactlyOnce) {
            producer.commitTransaction(offsets, consumer.groupMetadata());
        } else {
            // Before the offsets: a record that failed must be read again, not committed past.
            producer.flush();
            if (!offsets.isEmpty()) {
                consumer.commitSync(offsets);
            }
        }
        consumed.clear();
        liveness.committed();
        purger.committed(offsets);
        prepared.forEach(p -> p.task().completeCommit(p.flushes(), changelogOffsets(p.id(), p.flushes(), offsets)));
        commitTimer.record(System.nanoTime() - start);
    }

    /** A task whose commit is under way, with its stores' part of it. */
    private record PreparedTask(TaskId id, StreamTask task, List<TaskStores.StoreFlush> flushes) {}

    /**
     * Per store of a task, the changelog offset its contents reach after this commit: for a source table's
     * store, the input offset the commit stored for its topic.
     */
    private Map<String, Map<String, byte[]>> changelogOffsets(
            TaskId id, List<TaskStores.StoreFlush> flushes, Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<String, Map<String, byte[]>> metadata = new HashMap<>();
        for (TaskStores.StoreFlush flush : flushes) {
            StoreSpec spec = topology.store(flush.store());
            TopicPartition changelog = new TopicPartition(spec.changelogTopic(applicationId), id.partition());
            if (spec.source() != null) {
                OffsetAndMetadata input = offsets.get(changelog);
                if (spec.logged() && input != null) {
                    metadata.put(flush.store(), Map.of(ChangelogOffset.KEY, ChangelogOffset.bytes(input.offset())));
                }
                continue;
            }
            Long last = producer.collector().lastOffset(changelog);
            if (spec.logged() && last != null && !flush.flush().changes().isEmpty()) {
                // The next offset after the last change: this transaction's commit marker or a later record.
                metadata.put(flush.store(), Map.of(ChangelogOffset.KEY, ChangelogOffset.bytes(last + 1)));
            }
        }
        return metadata;
    }
}
