package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetric;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.MetricGroup;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.query.LocalStores;
import io.weir.streams.internals.state.CacheBudget;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.StoreOpener;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The tasks of one stream thread, in their three states: <b>restoring</b> (stores being brought up to
 * date by the {@link StoreRestorer}, input partitions paused), <b>running</b> (a {@link StreamTask}
 * reading its partitions), and <b>standby</b> copies ({@link StandbyTasks}). It opens, promotes and
 * closes them as assignments come and go, and positions the group consumer on a new task's committed
 * offsets. The thread's loop, commits and clients stay in {@link StreamThread}.
 *
 * <p>Used by its stream thread only, apart from {@link #activeTaskNames}, {@link #standbyIds} and
 * {@link #standbyLag}, which any thread may read. Owns the tasks, the restorer and the standby copies;
 * uses (does not own) the group consumer.
 */
final class TaskManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TaskManager.class);

    private final String threadName;
    private final StreamsConfig config;
    private final TopologySpec topology;
    private final String applicationId;
    /** The task count of each sub-topology, known once the topics are prepared (before any task is made). */
    private final Supplier<Map<Integer, Integer>> taskCounts;

    private final Map<String, GlobalStore<?, ?>> globals;
    private final LocalStores localStores;
    private final StoreOpener storeOpener;
    /** The thread's part of the instance's cache budget, shared by its tasks and standby copies. */
    private final CacheBudget cacheBudget;
    /** Where the thread says which task directories it holds, so that none is deleted under it. */
    private final TaskDirectories directories;

    private final Consumer<byte[], byte[]> consumer;
    private final StoreRestorer restorer;
    private final StandbyTasks standbys;
    private final Supplier<KafkaRecordCollector> collector;
    /** The consumer's {@code auto.offset.reset}: where a task with no committed offset starts. */
    private final String offsetReset;

    private final Map<TaskId, TaskMetrics> metrics;
    private final MetricGroup threadMetrics;

    private final Map<TaskId, StreamTask> tasks = new TreeMap<>();
    private final Map<TaskId, Restoring> restoring = new TreeMap<>();
    private final Map<TopicPartition, TaskId> taskOfPartition = new HashMap<>();
    /** The running tasks, published for other threads. */
    private volatile Set<String> activeTaskNames = Set.of();
    /** How many tasks restore, published for other threads. */
    private volatile int restoringCount;

    /** An assigned task waiting for its stores, with the committed offsets its partitions had then. */
    private record Restoring(TaskStores stores, Map<TopicPartition, OffsetAndMetadata> committed) {}
    /** Woken by the answers of the tasks' asynchronous calls (see {@link #awaitAnswers}). */
    private final AnswerSignal answers = new AnswerSignal();

    /**
     * @param storeOpener opens the tasks' RocksDB stores
     * @param directories the instance's task directories, claimed before a task's stores open
     * @param collector the thread's current record collector (a new one comes with a new producer)
     * @param metrics   each task's metrics, kept across the task's closes and reopenings
     * @param threadMetrics the thread's metric group, under which a task's metrics are published while it
     *     is here
     */
    TaskManager(
            String threadName,
            StreamsConfig config,
            TopologySpec topology,
            Supplier<Map<Integer, Integer>> taskCounts,
            Map<String, GlobalStore<?, ?>> globals,
            LocalStores localStores,
            StoreOpener storeOpener,
            TaskDirectories directories,
            Consumer<byte[], byte[]> consumer,
            StoreRestorer restorer,
            StandbyTasks standbys,
            Supplier<KafkaRecordCollector> collector,
            String offsetReset,
            Map<TaskId, TaskMetrics> metrics,
            MetricGroup threadMetrics) {
        this.threadName = threadName;
        this.config = config;
        this.topology = topology;
        this.applicationId = config.applicationId();
        this.taskCounts = taskCounts;
        this.globals = globals;
        this.localStores = localStores;
        this.storeOpener = storeOpener;
        this.cacheBudget = new CacheBudget(Math.max(1, config.cacheMaxBytes() / config.threads()));
        this.directories = directories;
        this.consumer = consumer;
        this.restorer = restorer;
        this.standbys = standbys;
        this.collector = collector;
        this.offsetReset = offsetReset;
        this.metrics = metrics;
        this.threadMetrics = threadMetrics;
    }

    /**
     * With {@code rocksdb.memory.max.bytes}: while the instance's shared RocksDB cache is over its bound,
     * flushes the memtables of this thread's stores (active tasks and standby copies), largest first.
     * RocksDB's write buffer manager flushes only a database that is being written, so stores gone
     * quiet would keep their memtables and an instance of many quiet stores would stay over its bound.
     * Restoring stores are left alone: they are written, so the manager flushes them. Call between commits.
     *
     * @param flushes counted once per store flushed
     */
    void keepRocksDbWithinBound(Counter flushes) {
        if (!storeOpener.memoryOverBound()) {
            return;
        }
        List<Map.Entry<RocksDbBytesStore, Long>> bySize = new ArrayList<>();
        for (StreamTask task : tasks.values()) {
            task.stores().rocksDbStores().forEach(s -> bySize.add(Map.entry(s, s.memtableBytes())));
        }
        for (TaskStores copy : standbys.stores()) {
            copy.rocksDbStores().forEach(s -> bySize.add(Map.entry(s, s.memtableBytes())));
        }
        bySize.sort(Map.Entry.<RocksDbBytesStore, Long>comparingByValue().reversed());
        for (Map.Entry<RocksDbBytesStore, Long> store : bySize) {
            if (store.getValue() == 0 || !storeOpener.memoryOverBound()) {
                return;
            }
            store.getKey().flushMemtables();
            flushes.increment();
        }
    }

    /** The budget the caches of this thread's tasks share. */
    CacheBudget cacheBudget() {
        return cacheBudget;
    }

    /** The running tasks, by id. */
    Map<TaskId, StreamTask> running() {
        return tasks;
    }

    /** Whether any assigned task is still restoring. */
    boolean restoring() {
        return !restoring.isEmpty();
    }

    /** The running and restoring tasks: what the thread tells the assignor it owns (with {@link #standbyIds}). */
    Set<TaskId> owned() {
        return union(tasks.keySet(), restoring.keySet());
    }

    /** The partitions the running tasks read. */
    Set<TopicPartition> partitions() {
        return taskOfPartition.keySet();
    }

    /** The task reading {@code partition}: every record polled belongs to a partition of a running task. */
    StreamTask taskOf(TopicPartition partition) {
        TaskId id = taskOfPartition.get(partition);
        StreamTask task = id == null ? null : tasks.get(id);
        if (task == null) {
            throw new IllegalStateException("No running task reads " + partition);
        }
        return task;
    }

    /** The running or restoring tasks that read any of {@code partitions}. */
    Set<TaskId> reading(Collection<TopicPartition> partitions) {
        Set<TaskId> found = new TreeSet<>();
        for (TaskId id : owned()) {
            if (inputPartitions(id).stream().anyMatch(partitions::contains)) {
                found.add(id);
            }
        }
        return found;
    }

    /**
     * Takes a new assignment: drops the standby copies no longer assigned, opens the new active tasks for
     * restoring (a copy kept here is handed over as it is, so only its lag is replayed), and opens the new
     * standby copies.
     *
     * @param added the partitions new to the consumer in this assignment
     */
    void assign(Set<TaskId> active, Set<TaskId> standbyCopies, Collection<TopicPartition> added) {
        directories.claim(threadName, union(active, standbyCopies));
        for (TaskId id : standbys.ids()) {
            if (!standbyCopies.contains(id) && !active.contains(id)) {
                standbys.remove(id);
            }
        }
        Set<TaskId> newTasks = new TreeSet<>(active);
        newTasks.removeAll(owned());
        openActive(newTasks, added);
        for (TaskId id : standbyCopies) {
            if (!standbys.ids().contains(id) && !owned().contains(id)) {
                standbys.add(id, openStores(id, false));
            }
        }
        publishHolds();
    }

    /** Tells the instance's task directories which tasks this thread holds now. */
    private void publishHolds() {
        directories.hold(threadName, union(owned(), standbys.ids()));
    }

    private void openActive(Set<TaskId> added, Collection<TopicPartition> newPartitions) {
        if (added.isEmpty()) {
            return;
        }
        Set<TopicPartition> inputs = new HashSet<>();
        added.forEach(id -> inputs.addAll(inputPartitions(id)));
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(inputs);
        // Start exactly where the event time we restore was committed: the consumer would otherwise
        // fetch the committed offsets again, and a commit landing in between would pair one commit's
        // offsets with another's event time. Every input of the task, not only the partitions new to
        // this consumer: a task dropped after a failed commit comes back on partitions the consumer
        // kept, whose positions are past the work that was dropped.
        List<TopicPartition> fromReset = new ArrayList<>();
        for (TopicPartition tp : inputs) {
            OffsetAndMetadata offset = committed.get(tp);
            if (offset != null) {
                consumer.seek(tp, offset);
            } else if (!newPartitions.contains(tp)) {
                fromReset.add(tp);
            }
        }
        if (!fromReset.isEmpty()) {
            if ("latest".equals(offsetReset)) {
                consumer.seekToEnd(fromReset);
            } else {
                consumer.seekToBeginning(fromReset);
            }
        }
        for (TaskId id : added) {
            TaskStores stores = standbys.promote(id);
            if (stores == null) {
                stores = openStores(id, true);
            } else {
                stores.hostIn(localStores.forTask(id));
            }
            TaskMetrics taskMetrics = metricsOf(id);
            taskMetrics.publish(threadMetrics.child(WeirMetric.Level.TASK, id.toString()));
            try {
                restorer.register(id, stores, applicationId, committed, taskMetrics);
            } catch (RuntimeException e) {
                taskMetrics.unpublish();
                stores.close();
                throw e;
            }
            restoring.put(id, new Restoring(stores, committed));
            consumer.pause(inputPartitions(id));
        }
        publish();
        log.info("Thread {} restores the state of tasks {}", threadName, restoring.keySet());
    }

    /**
     * @param active whether for an active task (queries read its stores once restored) or a standby copy
     *     (stale reads read them, with the copy's lag)
     */
    private TaskStores openStores(TaskId id, boolean active) {
        return new TaskStores(
                topology.storesOf(topology.subtopologies().get(id.subtopology())),
                config.stateDir().resolve(applicationId).resolve(id.toString()),
                cacheBudget,
                globals,
                active
                        ? localStores.forTask(id)
                        : localStores.forStandby(
                                id,
                                topology.storesOf(topology.subtopologies().get(id.subtopology())).stream()
                                        .filter(StoreSpec::ownChangelog)
                                        .map(StoreSpec::name)
                                        .collect(Collectors.toSet()),
                                store -> standbys.lag(new TopicPartition(
                                        topology.store(store).changelogTopic(applicationId), id.partition()))),
                storeOpener);
    }

    /**
     * Restores for up to {@code timeout} and turns tasks whose stores are restored into running tasks,
     * letting their input flow.
     *
     * @return whether every assigned task runs now
     */
    boolean stepRestore(Duration timeout) {
        Set<TaskId> restored = restorer.step(timeout);
        for (TaskId id : restored) {
            Restoring r = Objects.requireNonNull(restoring.remove(id), "a restored task was restoring");
            r.stores().ready();
            StreamTask task;
            try {
                task = newTask(id, r);
            } catch (RuntimeException e) {
                // A processor's init threw: the task never runs, so nothing else would withdraw its metrics.
                metricsOf(id).unpublish();
                r.stores().close();
                inputPartitions(id).forEach(taskOfPartition::remove);
                publishHolds();
                throw e;
            }
            tasks.put(id, task);
            consumer.resume(inputPartitions(id));
        }
        if (!restored.isEmpty()) {
            publish();
            log.info("Thread {} runs tasks {}", threadName, tasks.keySet());
        }
        return restoring.isEmpty();
    }

    /** Applies what the standby copies' changelogs returned, without waiting. */
    void stepStandbys() {
        standbys.step();
    }

    private StreamTask newTask(TaskId id, Restoring restored) {
        SubtopologySpec sub = topology.subtopologies().get(id.subtopology());
        Map<TopicPartition, String> committedTime = new HashMap<>();
        Map<String, Integer> upstream = new HashMap<>();
        for (SourceSpec source : sub.sources()) {
            TopicPartition tp = new TopicPartition(source.topic(applicationId), id.partition());
            taskOfPartition.put(tp, id);
            OffsetAndMetadata c = restored.committed().get(tp);
            if (c != null && c.metadata() != null) {
                committedTime.put(tp, c.metadata());
            }
            if (source.repartition()) {
                upstream.put(
                        tp.topic(),
                        taskCounts.get().get(topology.writerOf(source.topic()).id()));
            }
        }
        TaskMetrics taskMetrics = metricsOf(id);
        StreamTask task = new StreamTask(
                id,
                applicationId,
                sub,
                restored.stores(),
                collector.get(),
                taskMetrics,
                System.currentTimeMillis(),
                upstream,
                committedTime,
                config.maxFutureSkewMs());
        task.wakeUpWith(answers);
        return task;
    }

    /**
     * Waits up to {@code maxMs} for an answer to an asynchronous call of a task of this thread, given since
     * the last wait (then it returns at once).
     */
    void awaitAnswers(long maxMs) {
        answers.await(maxMs);
    }

    /** Closes every running and restoring task (standby copies stay). */
    void closeAll() {
        close(owned());
    }

    /** Closes every running and restoring task, dropping what they did not commit. */
    void closeAllDirty() {
        for (StreamTask task : tasks.values()) {
            task.stores().names().forEach(n -> task.stores().cache(n).discard());
        }
        closeAll();
    }

    /** Closes the given running or restoring tasks and forgets their partitions. */
    void close(Set<TaskId> ids) {
        for (TaskId id : ids) {
            StreamTask task = tasks.remove(id);
            if (task != null) {
                try {
                    task.close();
                } catch (RuntimeException e) {
                    log.warn("Closing task {} failed", id, Redaction.forLog(e));
                }
            }
            Restoring r = restoring.remove(id);
            if (r != null) {
                restorer.remove(id);
                metricsOf(id).unpublish();
                r.stores().close();
            }
            inputPartitions(id).forEach(taskOfPartition::remove);
        }
        publish();
        publishHolds();
    }

    private TaskMetrics metricsOf(TaskId id) {
        return metrics.computeIfAbsent(id, k -> new TaskMetrics(k.toString()));
    }

    private void publish() {
        restoringCount = restoring.size();
        activeTaskNames = tasks.keySet().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet());
    }

    /** How many tasks restore their stores; callable from any thread. */
    int restoringCount() {
        return restoringCount;
    }

    /** The running tasks' names; callable from any thread. */
    Set<String> activeTaskNames() {
        return activeTaskNames;
    }

    /** The tasks this thread keeps standby copies of; callable from any thread. */
    Set<TaskId> standbyIds() {
        return standbys.ids();
    }

    /** Each standby copy with the changelog records it has not read yet. */
    Map<TaskId, Long> standbyLags() {
        return standbys.lags();
    }

    /** Changelog records the standby copies have not read yet; callable from any thread. */
    long standbyLag() {
        return standbys.lag();
    }

    private List<TopicPartition> inputPartitions(TaskId id) {
        return WeirPartitionAssignor.inputPartitions(topology, applicationId, id);
    }

    private static Set<TaskId> union(Set<TaskId> a, Set<TaskId> b) {
        Set<TaskId> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** Closes every task and copy, then the restorer's writers. */
    @Override
    public void close() {
        try {
            closeAll();
            closeQuietly(standbys);
            closeQuietly(restorer);
        } finally {
            directories.hold(threadName, Set.of());
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.warn("Closing {} failed", c.getClass().getSimpleName(), e);
        }
    }
}
