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
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.task.RawRecord;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
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
 * {@code commit.interval.ms} (or when a task's cache is full, or when a task emitted a pane, which asks for
 * a commit, and the thread has caught up with its input) commit. A commit under exactly-once:
 * the tasks' changelog records are sent, the consumed offsets (with the event time each partition
 * reached) go into the transaction with {@code sendOffsetsToTransaction}, the transaction commits,
 * and only then do the stores receive their writes with the changelog offsets they match. Under
 * at-least-once the producer is flushed, its send failures checked, and only then the offsets committed
 * with {@code commitSync}. An admin client reads the output topics' size limits ({@link TopicLimitsReader})
 * and deletes repartition records the thread's tasks have committed past ({@link RepartitionPurger}).
 *
 * <p>Rebalances are cooperative ({@link WeirPartitionAssignor}): tasks that stay keep processing while
 * the group rebalances; only commits wait, from the moment the thread rejoins until it has its new
 * assignment, because the group's generation changes in between. A task that moves away is revoked:
 * every task commits (one transaction covers them all), and the revoked ones close (their state stays on
 * disk, so a task that comes back restores only what it missed). A newly assigned task first restores
 * its stores ({@link StoreRestorer}) with its input partitions paused; the loop keeps polling the group
 * consumer meanwhile, so a long restore does not cost the thread its group membership, and tasks
 * already running go on alongside.
 *
 * <p>Membership is static by default ({@link StreamsConfig#GROUP_INSTANCE_ID}): the consumer's instance
 * id is stable across restarts, so a restarted instance takes its tasks back without a rebalance.
 *
 * <p>The tasks themselves (running, restoring, standby; by partition) are kept by the {@link
 * TaskManager}; this class keeps the clients, the loop, the commit and the rebalance callbacks, which
 * run inside {@code poll()} on this thread and share its producer and transaction. The other parts stand
 * apart too ({@link KafkaRecordCollector}, {@link RepartitionPurger}, {@link TopicLimitsReader}, {@link
 * AssignorContext}).
 */
final class StreamThread extends Thread {

    private static final Logger log = LoggerFactory.getLogger(StreamThread.class);

    /** The consumer's session timeout unless configured: see the constructor. */
    static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;
    /** Members learn of a rebalance from a heartbeat: a short interval makes rebalances quick. */
    static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;
    /** Kafka's consumer default for {@code max.poll.interval.ms}. */
    private static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;
    /**
     * How long a rebalance waits for the brokers on each of its lookups (the whole group waits meanwhile):
     * the leader for the changelogs' sizes and for each departed member's transaction to be aborted, a
     * member for the ends of the changelogs its state on disk follows. Without the offsets, tasks go only to
     * instances with a caught-up copy; without the abort, the broker times the transaction out later.
     */
    private static final Duration REBALANCE_LOOKUP_TIMEOUT = Duration.ofSeconds(5);

    /** What the instance learns from its threads. */
    interface Listener {
        void onRunning(StreamThread thread);

        void onRebalancing(StreamThread thread);
    }

    private final StreamsConfig config;

    private final TopologySpec topology;
    private final String applicationId;
    private final Set<String> sourceTopics;
    private final Listener listener;
    private final AssignorContext assignor;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaConsumer<byte[], byte[]> restoreConsumer;
    private final Map<String, Object> producerConfig;
    private final Admin admin;
    private final TopicLimitsReader topicLimits;
    /** The changelog topics this thread's commits write, whose last offsets the collector keeps. */
    private final Set<String> changelogTopics;

    private final RepartitionPurger purger;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaRecordCollector collector;
    private final TaskManager tasks;

    private final Map<TopicPartition, Long> consumed = new HashMap<>();
    private final Map<TaskId, TaskMetrics> metrics = new ConcurrentHashMap<>();
    private final ThreadMetrics threadMetrics;

    private final boolean exactlyOnce;
    private volatile boolean running = true;
    /** Whether the consumer leaves the group when the thread stops (a static member otherwise stays). */
    private volatile boolean leaveGroup;

    private boolean transactionOpen;
    /**
     * Whether the producer's transactions are initialized. The thread joins the group first and
     * initializes them when it takes its first tasks, before any task restores or reads a committed
     * offset: joining early lets a restarted static member rejoin before its old session expires (no
     * rebalance), and the fencing still comes before anything the zombie it fences may have written is
     * read.
     */
    private boolean transactionsInitialized;

    private long transactionStartNanos;
    private long lastCommit;
    private @Nullable Throwable failure;
    private final Consumer<Throwable> onFailure;
    private final Liveness liveness;
    /** The record in process, whose coordinates a failure carries when it names none itself. */
    private @Nullable ConsumerRecord<byte[], byte[]> inProcess;
    /** What taking an assignment failed on, in the rebalance callback; thrown after the poll that ran it. */
    private @Nullable RuntimeException assignFailure;

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
            ClusterMetadata cluster,
            Listener listener,
            Consumer<Throwable> onFailure) {
        super(name);
        this.config = config;
        this.topology = topology;
        this.applicationId = config.applicationId();
        this.listener = listener;
        this.onFailure = onFailure;
        this.exactlyOnce = config.exactlyOnce();
        this.assignor = new AssignorContext(
                topology, applicationId, config.applicationServer().orElse(null), cluster, processId, config);
        assignor.onRebalanceStart(() -> listener.onRebalancing(this));
        Set<String> topics = new HashSet<>();
        topology.sources().forEach(s -> topics.add(s.topic(applicationId)));
        this.sourceTopics = topics;

        Map<String, Object> consumerConfig = config.clientConfig(StreamsConfig.CONSUMER_PREFIX);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, applicationId);
        consumerConfig.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, WeirPartitionAssignor.class.getName());
        consumerConfig.put(AssignorContext.CONFIG_KEY, assignor);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        String offsetReset = String.valueOf(consumerConfig.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, name + "-consumer");
        if (groupInstanceId != null) {
            consumerConfig.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, groupInstanceId);
        }
        // Fast failure detection: a dead instance's tasks wait this long for a new owner. Kafka's 45 s
        // default favours riding out long pauses; with cooperative rebalances and standbys a spurious
        // rebalance costs little, so Weir detects sooner.
        consumerConfig.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, DEFAULT_SESSION_TIMEOUT_MS);
        consumerConfig.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, DEFAULT_HEARTBEAT_INTERVAL_MS);
        this.consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        Map<String, Object> restoreConfig = ReaderConsumers.config(config, name + "-restore-consumer");
        this.restoreConsumer =
                new KafkaConsumer<>(restoreConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        producerConfig = config.clientConfig(StreamsConfig.PRODUCER_PREFIX);
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, name + "-producer");
        if (exactlyOnce) {
            producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            // A transaction left open by a dead instance that does not come back blocks read_committed
            // readers until it times out: keep that short, as Kafka Streams does.
            producerConfig.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 10_000);
        }
        producerConfig.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        Map<String, Object> adminConfig = config.clientConfig(StreamsConfig.ADMIN_PREFIX);
        adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, name + "-admin");
        this.admin = Admin.create(adminConfig);
        ChangelogSizes changelogs = new ChangelogSizes(admin, REBALANCE_LOOKUP_TIMEOUT);
        assignor.changelogSizes(changelogs);
        this.topicLimits = new TopicLimitsReader(admin, producerConfig);
        this.changelogTopics = topology.stores().values().stream()
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
                exactlyOnce ? transactionTimeoutMs(producerConfig) : -1,
                maxPollIntervalMs(consumerConfig),
                config.commitIntervalMs());
        createProducer();
        Map<String, Object> standbyConfig = ReaderConsumers.config(config, name + "-standby-consumer");
        this.tasks = new TaskManager(
                name,
                config,
                topology,
                cluster::taskCounts,
                globals,
                localStores,
                storesFound,
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
                () -> collector,
                offsetReset,
                metrics,
                metricGroup);
        TaskManager taskManager = tasks;
        this.threadMetrics = new ThreadMetrics(
                metricGroup,
                () -> taskManager.activeTaskNames().size(),
                taskManager::restoringCount,
                () -> taskManager.standbyIds().size());
        assignor.standbyLags(tasks::standbyLags);
        assignor.stateOnDisk(new StateOnDisk(storesFound, topology, applicationId, changelogs)::lags);
    }

    private static long transactionTimeoutMs(Map<String, Object> producerConfig) {
        return Long.parseLong(String.valueOf(producerConfig.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)));
    }

    private static long maxPollIntervalMs(Map<String, Object> consumerConfig) {
        Object set = consumerConfig.get(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        return set == null ? DEFAULT_MAX_POLL_INTERVAL_MS : Long.parseLong(String.valueOf(set));
    }

    /** A fresh producer and collector, its transactions not yet initialized. */
    private void createProducer() {
        producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        collector = new KafkaRecordCollector(producer, this::ensureTransaction, topicLimits, changelogTopics);
        transactionOpen = false;
    }

    /**
     * Under exactly-once, registers the producer's transactional id (fencing an older producer with it,
     * and aborting the transaction it left open). Done on this thread: a refusal (a missing ACL) then
     * fails the thread like any other error.
     */
    private void initTransactions() {
        if (exactlyOnce) {
            long began = System.nanoTime();
            producer.initTransactions();
            log.info(
                    "Thread {} initialized its transactions in {} ms",
                    getName(),
                    (System.nanoTime() - began) / 1_000_000);
        }
        transactionsInitialized = true;
    }

    /** A fresh producer (and collector) after this thread's transactions were fenced. */
    private void newProducer() {
        createProducer();
        initTransactions();
    }

    /**
     * Another member owns some of our tasks now (we missed a rebalance, or a zombie of us was fenced):
     * drop what was not committed, get a new producer, and rejoin the group to get tasks again.
     */
    private void recover(RuntimeException cause) {
        dropTasks(cause);
        consumer.unsubscribe();
        consumer.subscribe(sourceTopics, new Rebalance());
    }

    /** Closes the tasks without committing and replaces the producer, whose transactions may be fenced. */
    private void dropTasks(RuntimeException cause) {
        log.warn("Thread {} lost its tasks ({}); closing them dirty", getName(), cause.toString());
        lostTasks(cause);
        closeTasksDirty();
        closeQuietly(producer);
        newProducer();
    }

    /** Counts a loss of the tasks' uncommitted work, for the escalation of repeated ones ({@link Liveness}). */
    private void lostTasks(Throwable cause) {
        threadMetrics.taskLosses().increment();
        liveness.lost(cause, transactionOpen ? (System.nanoTime() - transactionStartNanos) / 1_000_000 : -1);
    }

    private static boolean tasksMigrated(RuntimeException e) {
        return e instanceof ProducerFencedException
                || e instanceof InvalidProducerEpochException
                || e instanceof CommitFailedException
                || e instanceof RebalanceInProgressException
                || e instanceof IllegalGenerationException
                || e instanceof UnknownMemberIdException;
    }

    @Override
    public void run() {
        try {
            log.info("Thread {} joins the group", getName());
            consumer.subscribe(sourceTopics, new Rebalance());
            lastCommit = System.currentTimeMillis();
            while (running) {
                ConsumerRecords<byte[], byte[]> records;
                long pollStart = System.nanoTime();
                try {
                    // While stores restore, the group consumer is only polled to stay a member (and to
                    // feed tasks already running); the restore consumer does the waiting.
                    records = consumer.poll(tasks.restoring() ? Duration.ZERO : Duration.ofMillis(config.pollMs()));
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
                RuntimeException assignFailed = assignFailure;
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
                if (!assignor.rebalancing()
                        && (cut
                                || now - lastCommit >= config.commitIntervalMs()
                                || tasks.running().values().stream().anyMatch(StreamTask::needsCommit)
                                || (tasks.running().values().stream().anyMatch(StreamTask::commitRequested)
                                        && caughtUp()))) {
                    try {
                        commit();
                    } catch (RuntimeException e) {
                        if (!tasksMigrated(e)) {
                            throw e;
                        }
                        recover(e);
                    }
                    lastCommit = now;
                    purger.maybePurge(now);
                }
                liveness.check(
                        System.currentTimeMillis(),
                        !consumed.isEmpty() || transactionOpen,
                        !tasks.running().isEmpty());
            }
            commit();
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
     * Processes what a poll returned, partition by partition, until the open transaction has lived half its
     * timeout or the poll half of {@code max.poll.interval.ms} ({@link Liveness#cutBatch}): then the rest is
     * left for the next poll (each partition is sought back to its first record not processed), so the
     * thread commits first. One slow record thus never costs the transaction its timeout, as long as that
     * record alone takes less than half of it.
     *
     * @return whether the batch was cut, and the thread should commit now
     */
    private boolean processBatch(ConsumerRecords<byte[], byte[]> records, long now, long pollReturnedNanos) {
        boolean cut = false;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(tp);
            if (cut) {
                consumer.seek(tp, batch.get(0).offset());
                continue;
            }
            StreamTask task = tasks.taskOf(tp);
            // Timed per batch: a clock read per record would cost more than many operators do.
            long processStart = System.nanoTime();
            liveness.processed(System.currentTimeMillis());
            int processed = 0;
            for (ConsumerRecord<byte[], byte[]> r : batch) {
                if (liveness.cutBatch(System.nanoTime(), pollReturnedNanos, transactionOpen, transactionStartNanos)) {
                    consumer.seek(tp, r.offset());
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
            if (processed > 0) {
                long took = System.nanoTime() - processStart;
                task.processTimer().record(processed, took);
                threadMetrics.process().record(processed, took);
                consumed.put(tp, batch.get(processed - 1).offset() + 1);
            }
        }
        if (cut) {
            threadMetrics.batchCommits().increment();
        }
        return cut;
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

    private void ensureTransaction() {
        if (exactlyOnce && !transactionOpen) {
            producer.beginTransaction();
            transactionOpen = true;
            transactionStartNanos = System.nanoTime();
        }
    }

    /** Commits every task: see the class docs for the order of the steps. */
    private void commit() {
        if (tasks.running().isEmpty() || (consumed.isEmpty() && !transactionOpen)) {
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
            ensureTransaction();
            if (!offsets.isEmpty()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
            transactionOpen = false;
            collector.checkForErrors();
        } else {
            producer.flush();
            // Before the offsets: a record that failed must be read again, not committed past.
            collector.checkForErrors();
            if (!offsets.isEmpty()) {
                consumer.commitSync(offsets);
            }
        }
        consumed.clear();
        liveness.committed();
        purger.committed(offsets);
        prepared.forEach(p -> p.task().completeCommit(p.flushes(), changelogOffsets(p.id(), p.flushes(), offsets)));
        threadMetrics.commit().record(System.nanoTime() - start);
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
            Long last = collector.lastOffset(changelog);
            if (spec.logged() && last != null && !flush.flush().changes().isEmpty()) {
                // The next offset after the last change: this transaction's commit marker or a later record.
                metadata.put(flush.store(), Map.of(ChangelogOffset.KEY, ChangelogOffset.bytes(last + 1)));
            }
        }
        return metadata;
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        /**
         * Commits every task and closes those that read a revoked partition. A commit refused because
         * the tasks migrated (a fenced producer, a stale generation) drops all uncommitted work here: an
         * exception thrown from this callback would come out of {@code poll()} wrapped, outside the loop's
         * recovery, and fail the thread. The group is rebalancing anyway; the thread rejoins with no
         * tasks.
         */
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<TaskId> revoked = tasks.reading(partitions);
            if (revoked.isEmpty()) {
                return;
            }
            if (!tasks.running().isEmpty()) {
                try {
                    commit();
                } catch (RuntimeException e) {
                    if (!tasksMigrated(e)) {
                        throw e;
                    }
                    dropTasks(e);
                    return;
                }
            }
            closeTasks(revoked);
            log.info("Thread {} handed over tasks {}", getName(), revoked);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (assignor.assignmentError() != null) {
                return;
            }
            try {
                if (!transactionsInitialized) {
                    initTransactions();
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
                listener.onRunning(StreamThread.this);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (!consumed.isEmpty() || transactionOpen) {
                lostTasks(new IllegalStateException("the group took its partitions: it missed a rebalance"));
            }
            closeTasksDirty();
        }
    }

    /** Tells the assignor what this thread holds, for its next subscription. */
    private void publishOwned() {
        assignor.owned(tasks.owned());
    }

    private void closeTasks() {
        closeTasks(tasks.owned());
    }

    /** Closes the given running or restoring tasks and forgets what they consumed. */
    private void closeTasks(Set<TaskId> ids) {
        tasks.close(ids);
        consumed.keySet().retainAll(tasks.partitions());
        publishOwned();
    }

    /** After a lost assignment or a failed commit: drop uncommitted work; the stores keep only what was committed. */
    private void closeTasksDirty() {
        tasks.closeAllDirty();
        consumed.clear();
        publishOwned();
        if (transactionOpen) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException e) {
                log.warn("Aborting the open transaction failed", e);
            }
            transactionOpen = false;
        }
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
            closeTasksDirty();
        } else {
            closeTasks();
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
