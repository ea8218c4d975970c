package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.ThreadStall;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.MetricGroup;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.metrics.ThreadMetrics;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.query.LocalStores;
import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.task.RawRecord;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One processing thread of an instance: a consumer in the application's group (with
 * {@link WeirPartitionAssignor}), a producer (transactional under exactly-once), a restore consumer,
 * and the tasks the group assigned it. It owns all of them and closes them when it ends.
 *
 * <p>Loop: poll; process each record in its task; let processing time advance; every
 * {@code commit.interval.ms} ({@code commit.interval.behind.ms} while it is behind its input), or when a
 * task's cache is full, or when a task emitted a pane, which asks for a commit, and the thread has caught
 * up with its input, commit all tasks at once ({@link
 * ThreadCommitter}). An admin client reads the output topics' size limits ({@link TopicLimitsReader})
 * and deletes repartition records the thread's tasks have committed past ({@link RepartitionPurger}).
 *
 * <p>Rebalances are cooperative ({@link WeirPartitionAssignor}): tasks that stay keep processing while
 * the group rebalances; only commits wait, from the moment the thread rejoins until it has its new
 * assignment, because the group's generation changes in between. A task that moves away is revoked
 * ({@link RebalanceCallbacks}); its state stays on disk, so a task that comes back restores only what it
 * missed. A newly assigned task first restores its stores ({@link StoreRestorer}) with its input
 * partitions paused; the loop keeps polling the group consumer meanwhile, so a long restore does not
 * cost the thread its group membership, and tasks already running go on alongside.
 *
 * <p>Membership is static by default ({@link StreamsConfig#GROUP_INSTANCE_ID}): the consumer's instance
 * id is stable across restarts, so a restarted instance takes its tasks back without a rebalance.
 *
 * <p>This class keeps the clients, the loop (poll, process, when to commit), the recovery when its tasks
 * migrate, and the thread's lifecycle. The parts it drives stand apart: the tasks themselves (running,
 * restoring, standby; by partition) in the {@link TaskManager}, the commit and its offsets in the {@link
 * ThreadCommitter}, the producer and its transaction in the {@link ThreadProducer}, the rebalance
 * callbacks and the closing of tasks in {@link RebalanceCallbacks}, the clients' settings in {@link
 * ThreadClientConfigs}, progress and stalls in {@link Liveness}; and {@link KafkaRecordCollector},
 * {@link RepartitionPurger}, {@link TopicLimitsReader}, {@link AssignorContext}.
 */
final class StreamThread extends Thread {

    private static final Logger log = LoggerFactory.getLogger(StreamThread.class);

    /**
     * How long a rebalance waits for the brokers on each of its lookups (the whole group waits meanwhile):
     * the leader for the changelogs' sizes and for each departed member's transaction to be aborted, a
     * member for the ends of the changelogs its state on disk follows. Without the offsets, tasks go only to
     * instances with a caught-up copy; without the abort, the broker times the transaction out later.
     */
    private static final Duration REBALANCE_LOOKUP_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Records of one partition for {@code task}, from a poll; {@code paused} when they wait in the thread (see
     * {@link #processBatch}).
     */
    private record Waiting(
            TopicPartition partition, StreamTask task, List<ConsumerRecord<byte[], byte[]>> records, boolean paused) {}

    /** The longest poll while a task holds records for asynchronous calls. */
    private static final long HOLDING_POLL_MS = 2;

    /** What the instance learns from its threads. */
    interface Listener {
        void onRunning(StreamThread thread);

        void onRebalancing(StreamThread thread);
    }

    private final StreamsConfig config;
    private final Set<String> sourceTopics;
    private final Listener listener;
    private final AssignorContext assignor;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaConsumer<byte[], byte[]> restoreConsumer;
    private final Admin admin;

    private final RepartitionPurger purger;
    private final ThreadProducer producer;
    private final TaskManager tasks;
    private final ThreadCommitter committer;
    private final RebalanceCallbacks rebalance;
    private final TaskDirectories directories;

    private final Map<TaskId, TaskMetrics> metrics = new ConcurrentHashMap<>();
    private final ThreadMetrics threadMetrics;

    private volatile boolean running = true;
    /** Whether the consumer leaves the group when the thread stops (a static member otherwise stays). */
    private volatile boolean leaveGroup;

    private long lastCommit;
    private @Nullable Throwable failure;
    private final Consumer<Throwable> onFailure;
    private final Liveness liveness;
    /** The record in process, whose coordinates a failure carries when it names none itself. */
    private @Nullable ConsumerRecord<byte[], byte[]> inProcess;
    /** Records a task could not take yet, by partition, each partition paused meanwhile ({@link #processBatch}). */
    private final Map<TopicPartition, Waiting> waiting = new LinkedHashMap<>();

    private volatile @Nullable String failedRecord;

    StreamThread(
            String name,
            StreamsConfig config,
            TopologySpec topology,
            String processId,
            String transactionalId,
            MetricGroup metricGroup,
            @Nullable String groupInstanceId,
            RestoreListener restoreListener,
            Map<String, GlobalStore<?, ?>> globals,
            LocalStores localStores,
            PreopenedStores storesFound,
            TaskDirectories directories,
            ClusterMetadata cluster,
            Listener listener,
            Consumer<Throwable> onFailure) {
        super(name);
        this.config = config;
        String applicationId = config.applicationId();
        this.listener = listener;
        this.onFailure = onFailure;
        this.directories = directories;
        boolean exactlyOnce = config.exactlyOnce();
        this.assignor = new AssignorContext(
                topology, applicationId, config.applicationServer().orElse(null), cluster, processId, config);
        assignor.onRebalanceStart(() -> listener.onRebalancing(this));
        Set<String> topics = new HashSet<>();
        topology.sources().forEach(s -> topics.add(s.topic(applicationId)));
        this.sourceTopics = topics;

        Map<String, Object> consumerConfig = ThreadClientConfigs.groupConsumer(config, name, assignor, groupInstanceId);
        this.consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        Map<String, Object> restoreConfig = ReaderConsumers.config(config, name + "-restore-consumer");
        this.restoreConsumer =
                new KafkaConsumer<>(restoreConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        Map<String, Object> producerConfig = ThreadClientConfigs.producer(config, name, transactionalId);
        this.admin = Admin.create(ThreadClientConfigs.admin(config, name));
        ChangelogSizes changelogs = new ChangelogSizes(admin, REBALANCE_LOOKUP_TIMEOUT);
        assignor.changelogSizes(changelogs);
        TopicLimitsReader topicLimits = new TopicLimitsReader(admin, producerConfig);
        Set<String> changelogTopics = topology.stores().values().stream()
                .filter(StoreSpec::ownChangelog)
                .map(s -> s.changelogTopic(applicationId))
                .collect(Collectors.toSet());
        Set<String> repartition = new HashSet<>();
        topology.sources().stream()
                .filter(SourceSpec::repartition)
                .forEach(s -> repartition.add(s.topic(applicationId)));
        this.purger = new RepartitionPurger(
                admin, repartition, config.repartitionPurgeIntervalMs(), System.currentTimeMillis());
        if (exactlyOnce) {
            assignor.transactions(
                    transactionalId, new TransactionFencer(producerConfig, REBALANCE_LOOKUP_TIMEOUT)::fence);
        }
        this.liveness = new Liveness(
                name,
                exactlyOnce ? ThreadClientConfigs.transactionTimeoutMs(producerConfig) : -1,
                ThreadClientConfigs.maxPollIntervalMs(consumerConfig),
                config.commitIntervalBehindMs());
        this.producer = new ThreadProducer(name, producerConfig, exactlyOnce, topicLimits, changelogTopics);
        Map<String, Object> standbyConfig = ReaderConsumers.config(config, name + "-standby-consumer");
        this.tasks = new TaskManager(
                name,
                config,
                topology,
                cluster::taskCounts,
                globals,
                localStores,
                storesFound,
                directories,
                consumer,
                new StoreRestorer(
                        restoreConsumer,
                        restoreListener,
                        name,
                        exactlyOnce,
                        new ChangelogTopicIds(admin, REBALANCE_LOOKUP_TIMEOUT)::of,
                        config.rebuildDeletedChangelogs()),
                new StandbyTasks(
                        () -> new KafkaConsumer<>(
                                standbyConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                        applicationId,
                        exactlyOnce,
                        metricGroup),
                producer::collector,
                ThreadClientConfigs.offsetReset(consumerConfig),
                metrics,
                metricGroup);
        TaskManager taskManager = tasks;
        this.threadMetrics = new ThreadMetrics(
                metricGroup,
                () -> taskManager.activeTaskNames().size(),
                taskManager::restoringCount,
                () -> taskManager.standbyIds().size(),
                taskManager.cacheBudget()::usedBytes,
                assignor::versionInUse);
        this.committer = new ThreadCommitter(
                topology,
                applicationId,
                exactlyOnce,
                tasks,
                consumer,
                producer,
                liveness,
                purger,
                threadMetrics.commit());
        this.rebalance = new RebalanceCallbacks(
                name,
                tasks,
                committer,
                producer,
                assignor,
                liveness,
                threadMetrics.taskLosses(),
                () -> listener.onRunning(this));
        assignor.standbyLags(tasks::standbyLags);
        assignor.stateOnDisk(new StateOnDisk(storesFound, topology, applicationId, changelogs)::lags);
    }

    /**
     * Another member owns some of our tasks now (we missed a rebalance, or a zombie of us was fenced):
     * drop what was not committed, get a new producer, and rejoin the group to get tasks again.
     */
    private void recover(RuntimeException cause) {
        rebalance.dropTasks(cause);
        consumer.unsubscribe();
        consumer.subscribe(sourceTopics, rebalance);
    }

    @Override
    public void run() {
        try {
            log.info("Thread {} joins the group", getName());
            consumer.subscribe(sourceTopics, rebalance);
            lastCommit = System.currentTimeMillis();
            while (running) {
                ConsumerRecords<byte[], byte[]> records;
                long pollStart = System.nanoTime();
                try {
                    // While stores restore, the group consumer is only polled to stay a member (and to
                    // feed tasks already running); the restore consumer does the waiting.
                    records = consumer.poll(awaitAnswers() ? Duration.ZERO : pollTimeout());
                    threadMetrics.poll().record(System.nanoTime() - pollStart);
                } catch (WakeupException e) {
                    if (running) {
                        throw e;
                    }
                    break;
                }
                if (assignor.assignmentError() != null) {
                    throw new IllegalStateException(assignor.assignmentError());
                }
                RuntimeException assignFailed = rebalance.assignFailure();
                if (assignFailed != null) {
                    throw assignFailed;
                }
                if (assignor.takeRejoinRequest()) {
                    consumer.enforceRebalance("a task moves to this or another member in a second rebalance");
                }
                if (tasks.restoring() && tasks.stepRestore(Duration.ofMillis(config.pollMs()))) {
                    listener.onRunning(this);
                }
                tasks.stepStandbys();
                long now = System.currentTimeMillis();
                String probe = assignor.takeProbeReason(now);
                if (probe != null) {
                    log.info("Thread {} asks for a new assignment: {}", getName(), probe);
                    consumer.enforceRebalance(probe);
                }
                boolean cut = processBatch(records, now, System.nanoTime());
                // Read again: processing a batch can take long (a slow user function), and the commit
                // interval and processing-time timers are about the clock, not about the last poll.
                // Advancing the clock also ends each task's batch (StreamTask.advanceProcessingTime).
                now = System.currentTimeMillis();
                for (StreamTask task : tasks.running().values()) {
                    task.advanceProcessingTime(now);
                }
                if (commitDue(cut, now)) {
                    try {
                        committer.commit();
                    } catch (RuntimeException e) {
                        if (!RebalanceCallbacks.tasksMigrated(e)) {
                            throw e;
                        }
                        recover(e);
                    }
                    lastCommit = now;
                    purger.maybePurge(now);
                    tasks.keepRocksDbWithinBound(threadMetrics.boundFlushes());
                }
                directories.maybeClean(System.currentTimeMillis());
                liveness.check(
                        System.currentTimeMillis(),
                        committer.uncommitted(),
                        !tasks.running().isEmpty());
            }
            committer.commit();
        } catch (Throwable e) {
            failure = e;
            ConsumerRecord<byte[], byte[]> record = inProcess;
            if (record != null) {
                failedRecord = record.topic() + "-" + record.partition() + "@" + record.offset();
            }
        } finally {
            shutdown();
        }
        if (failure != null) {
            log.error("Stream thread {} failed", getName(), Redaction.forLog(failure));
            onFailure.accept(failure);
        }
    }

    /**
     * While every assigned partition's input waits in the thread for tasks at capacity, what a poll would
     * return could not be processed: the thread waits for an answer of an asynchronous call instead, woken by
     * its completion, up to {@code poll.ms} and never past the commit interval (timeouts, timers and commits
     * are about the clock), and then polls without waiting.
     *
     * @return whether it waited
     */
    private boolean awaitAnswers() {
        if (tasks.restoring() || waiting.isEmpty()) {
            return false;
        }
        for (Waiting w : waiting.values()) {
            if (w.task().acceptsInput()) {
                return false;
            }
        }
        Set<TopicPartition> assigned = consumer.assignment();
        if (assigned.isEmpty() || !consumer.paused().containsAll(assigned)) {
            return false;
        }
        long untilCommit = lastCommit + config.commitIntervalMs() - System.currentTimeMillis();
        if (untilCommit <= 0) {
            return false;
        }
        tasks.awaitAnswers(Math.min(config.pollMs(), untilCommit));
        return true;
    }

    /**
     * How long a poll may wait for records: not at all while stores restore (the restore consumer waits), nor
     * while records wait in the thread for a task that has room for them again (its asynchronous operator
     * emptied since); {@value #HOLDING_POLL_MS} ms while a task holds records for asynchronous calls, whose
     * results leave as the thread comes round (the calls complete on other threads); {@code poll.ms}
     * otherwise.
     */
    private Duration pollTimeout() {
        if (tasks.restoring()) {
            return Duration.ZERO;
        }
        for (Waiting w : waiting.values()) {
            if (w.task().acceptsInput()) {
                return Duration.ZERO;
            }
        }
        for (StreamTask task : tasks.running().values()) {
            if (task.holdsRecords()) {
                return Duration.ofMillis(Math.min(HOLDING_POLL_MS, config.pollMs()));
            }
        }
        return Duration.ofMillis(config.pollMs());
    }

    /**
     * Processes what a poll returned, partition by partition, after what earlier polls returned that a task
     * could not take then ({@link #waiting}), until the open transaction has lived half its timeout or the
     * poll half of {@code max.poll.interval.ms} ({@link Liveness#cutBatch}): then the rest is left for the next
     * poll (each partition is sought back to its first record not processed), so the thread commits first.
     * One slow record thus never costs the transaction its timeout, as long as that record alone takes less
     * than half of it.
     *
     * <p>A task that holds all the records an asynchronous operator may ({@link StreamTask#acceptsInput()})
     * takes no more: the rest of its partition's records wait in the thread, the partition paused, until the
     * calls' results make room. Kept here rather than sought back to, since a fetch after a seek waits for
     * the fetch in flight, which the broker holds for up to {@code fetch.max.wait.ms} at the end of the log.
     *
     * @return whether the batch was cut, and the thread should commit now
     */
    private boolean processBatch(ConsumerRecords<byte[], byte[]> records, long now, long pollReturnedNanos) {
        List<Waiting> work = new ArrayList<>(waiting.values());
        waiting.clear();
        for (TopicPartition tp : records.partitions()) {
            work.add(new Waiting(tp, tasks.taskOf(tp), records.records(tp), false));
        }
        boolean cut = false;
        for (Waiting w : work) {
            TopicPartition tp = w.partition();
            StreamTask task = tasks.taskOf(tp);
            if (w.paused() && task != w.task()) {
                // The partition moved (or its task was dropped) since: whoever owns it reads from its commit.
                continue;
            }
            List<ConsumerRecord<byte[], byte[]>> batch = w.records();
            if (cut) {
                leaveForLater(w, 0);
                continue;
            }
            // Timed per batch: a clock read per record would cost more than many operators do.
            long processStart = System.nanoTime();
            liveness.processed(System.currentTimeMillis());
            int processed = 0;
            for (ConsumerRecord<byte[], byte[]> r : batch) {
                if (!task.acceptsInput()) {
                    waitForRoom(w, processed);
                    break;
                }
                if (liveness.cutBatch(
                        System.nanoTime(),
                        pollReturnedNanos,
                        producer.transactionOpen(),
                        producer.transactionStartNanos())) {
                    leaveForLater(w, processed);
                    cut = true;
                    break;
                }
                inProcess = r;
                task.process(
                        new RawRecord(
                                r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), r.value(), r.headers()),
                        now);
                processed++;
            }
            inProcess = null;
            if (w.paused() && !waiting.containsKey(tp)) {
                consumer.resume(List.of(tp));
            }
            if (processed > 0) {
                long took = System.nanoTime() - processStart;
                task.processTimer().record(processed, took);
                threadMetrics.process().record(processed, took);
                committer.processed(tp, batch.get(processed - 1).offset() + 1);
            }
        }
        if (cut) {
            threadMetrics.batchCommits().increment();
        }
        return cut;
    }

    /** Keeps the records of {@code w} from {@code from} on in the thread, the partition paused, for a later round. */
    private void waitForRoom(Waiting w, int from) {
        if (!w.paused()) {
            consumer.pause(List.of(w.partition()));
        }
        waiting.put(
                w.partition(),
                new Waiting(
                        w.partition(),
                        w.task(),
                        List.copyOf(w.records().subList(from, w.records().size())),
                        true));
    }

    /** After a cut: records waiting in the thread stay there; polled ones are sought back to. */
    private void leaveForLater(Waiting w, int from) {
        if (w.paused()) {
            waitForRoom(w, from);
        } else {
            consumer.seek(w.partition(), w.records().get(from).offset());
        }
    }

    /**
     * Whether the thread should commit now: never while it awaits its new assignment (the group's
     * generation changes in between); otherwise after a cut batch, every commit interval ({@link #intervalPassed}),
     * when a task's caches are over budget, or when a task asked for a commit and the thread has caught
     * up with its input.
     */
    private boolean commitDue(boolean cut, long now) {
        return !assignor.rebalancing()
                && (cut
                        || intervalPassed(now - lastCommit)
                        || tasks.running().values().stream().anyMatch(StreamTask::needsCommit)
                        || (tasks.running().values().stream().anyMatch(StreamTask::commitRequested) && caughtUp()));
    }

    /**
     * Whether {@code sinceLastCommit} ms is a commit interval: {@code commit.interval.ms}, or while the thread
     * is behind its input, {@code commit.interval.behind.ms} (equal unless set).
     */
    private boolean intervalPassed(long sinceLastCommit) {
        return sinceLastCommit >= config.commitIntervalMs()
                && (sinceLastCommit >= config.commitIntervalBehindMs() || caughtUp());
    }

    /**
     * Whether this thread has read everything its running tasks' partitions held when the consumer
     * last heard from the broker: then a commit a task asked for is worth making now.
     */
    private boolean caughtUp() {
        for (TopicPartition tp : tasks.partitions()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isEmpty() || lag.getAsLong() > 0) {
                return false;
            }
        }
        return true;
    }

    /** Closes the clients and metrics of a thread that was made but never started. */
    void closeUnstarted() {
        shutdown();
    }

    private void shutdown() {
        try {
            closeTasksAndClients();
        } finally {
            threadMetrics.close();
        }
    }

    private void closeTasksAndClients() {
        if (failure != null) {
            rebalance.closeTasksDirty();
        } else {
            rebalance.closeTasks();
        }
        closeQuietly(tasks);
        closeQuietly(() -> consumer.close(CloseOptions.groupMembershipOperation(
                leaveGroup
                        ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                        : CloseOptions.GroupMembershipOperation.DEFAULT)));
        closeQuietly(restoreConsumer);
        closeQuietly(producer);
        closeQuietly(admin);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.warn("Closing {} failed", c.getClass().getSimpleName(), e);
        }
    }

    /**
     * Asks the thread to commit and stop; returns at once.
     *
     * @param leave whether its consumer leaves the group (a static member otherwise keeps its place until
     *     its session times out, so that a restart gets its tasks back)
     */
    void requestStop(boolean leave) {
        leaveGroup = leave;
        running = false;
        consumer.wakeup();
    }

    /** Whether this thread has no commit it should have made by now, and why; callable from any thread. */
    @Nullable
    ThreadStall stall() {
        return liveness.stall();
    }

    /** Whether this thread ever committed; callable from any thread. */
    boolean hasCommitted() {
        return liveness.hasCommitted();
    }

    /**
     * The input record ({@code topic-partition@offset}) this thread was processing when it failed, or null when
     * it failed outside a record; callable from any thread once it ended.
     */
    @Nullable
    String failedRecord() {
        return failedRecord;
    }

    /** This thread's name and running tasks; callable from any thread. */
    ThreadMetadata metadata() {
        return new ThreadMetadata(
                getName(),
                tasks.activeTaskNames(),
                tasks.standbyIds().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * Counters of this thread's tasks, summed by node/metric, and its standby copies: {@code
     * standby/tasks} and {@code standby/lag-records}, the changelog records they have not read yet.
     */
    Map<String, Long> metricsSnapshot() {
        Map<String, Long> sum = new TreeMap<>();
        metrics.values().forEach(m -> m.snapshot().forEach((k, v) -> sum.merge(k, v, Long::sum)));
        sum.put("standby/tasks", (long) tasks.standbyIds().size());
        sum.put("standby/lag-records", tasks.standbyLag());
        return sum;
    }
}
