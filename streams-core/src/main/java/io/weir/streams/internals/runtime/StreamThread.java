package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.query.LocalStores;
import io.weir.streams.internals.state.TaskStores;
import io.weir.streams.internals.task.RawRecord;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskId;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
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
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * with {@code commitSync}. An admin client reads the output topics' size limits ({@link RecordSizeLimits})
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
 * <p>Why one class: the loop, the commit and the rebalance callbacks share one thread's clients and
 * tasks, and the callbacks run inside {@code poll()} on this thread, in the middle of the loop; what
 * each piece needs is the same handful of fields. The parts that stand alone are already apart
 * ({@link StoreRestorer}, {@link KafkaRecordCollector}, {@link RepartitionPurger},
 * {@link RecordSizeLimits}, {@link AssignorContext}). When standbys and cooperative rebalancing come,
 * the task bookkeeping (running, restoring, standby; by partition) becomes a task manager of its own.
 */
final class StreamThread extends Thread {

    private static final Logger log = LoggerFactory.getLogger(StreamThread.class);

    /** The consumer's session timeout unless configured: see the constructor. */
    static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;
    /** Members learn of a rebalance from a heartbeat: a short interval makes rebalances quick. */
    static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;

    /** What the instance learns from its threads. */
    interface Listener {
        void onRunning(StreamThread thread);

        void onRebalancing(StreamThread thread);
    }

    private final StreamsConfig config;
    /** The instance's global tables, which this thread's tasks read. */
    private final Map<String, GlobalStore<?, ?>> globals;

    private final LocalStores localStores;

    private final TopologySpec topology;
    private final String applicationId;
    private final Set<String> sourceTopics;
    private final Map<Integer, Integer> taskCounts;
    private final Listener listener;
    private final AssignorContext assignor;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaConsumer<byte[], byte[]> restoreConsumer;
    private final Map<String, Object> producerConfig;
    private final Admin admin;
    private final RecordSizeLimits sizeLimits;
    /** The changelog topics this thread's commits write, whose last offsets the collector keeps. */
    private final Set<String> changelogTopics;

    private final RepartitionPurger purger;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaRecordCollector collector;
    private final StoreRestorer restorer;
    private final StandbyTasks standbys;
    /** The consumer's {@code auto.offset.reset}: where a task with no committed offset starts. */
    private final String offsetReset;

    private final Map<TaskId, StreamTask> tasks = new TreeMap<>();
    /** Assigned tasks whose stores are still being restored; their input partitions are paused. */
    private final Map<TaskId, Restoring> restoring = new TreeMap<>();

    private final Map<TopicPartition, TaskId> taskOfPartition = new HashMap<>();
    private final Map<TopicPartition, Long> consumed = new HashMap<>();
    private final Map<TaskId, TaskMetrics> metrics = new ConcurrentHashMap<>();
    /** The running tasks, published for other threads ({@link #metadata()}). */
    private volatile Set<String> activeTasks = Set.of();

    private final boolean exactlyOnce;
    private volatile boolean running = true;
    /** Whether the consumer leaves the group when the thread stops (a static member otherwise stays). */
    private volatile boolean leaveGroup;

    private boolean transactionOpen;
    private long lastCommit;
    private @Nullable Throwable failure;
    private final Consumer<Throwable> onFailure;

    StreamThread(
            String name,
            StreamsConfig config,
            TopologySpec topology,
            Map<Integer, Integer> taskCounts,
            String processId,
            String transactionalId,
            @Nullable String groupInstanceId,
            RestoreListener restoreListener,
            Map<String, GlobalStore<?, ?>> globals,
            LocalStores localStores,
            ClusterMetadata cluster,
            Listener listener,
            Consumer<Throwable> onFailure) {
        super(name);
        this.globals = globals;
        this.localStores = localStores;
        this.config = config;
        this.topology = topology;
        this.applicationId = config.applicationId();
        this.taskCounts = taskCounts;
        this.listener = listener;
        this.onFailure = onFailure;
        this.exactlyOnce = config.exactlyOnce();
        this.assignor = new AssignorContext(
                topology,
                applicationId,
                config.applicationServer().orElse(null),
                cluster,
                processId,
                config.standbyReplicas());
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
        this.offsetReset = String.valueOf(consumerConfig.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
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
        this.sizeLimits = new RecordSizeLimits(admin, producerConfig);
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
        newProducer();
        this.restorer = new StoreRestorer(restoreConsumer, restoreListener, name, exactlyOnce);
        Map<String, Object> standbyConfig = ReaderConsumers.config(config, name + "-standby-consumer");
        this.standbys = new StandbyTasks(
                () -> new KafkaConsumer<>(standbyConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                applicationId,
                exactlyOnce);
    }

    /** A fresh producer (and collector): at start, and after this thread's transactions were fenced. */
    private void newProducer() {
        producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        collector = new KafkaRecordCollector(producer, this::ensureTransaction, sizeLimits, changelogTopics);
        transactionOpen = false;
        if (exactlyOnce) {
            producer.initTransactions();
        }
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
        closeTasksDirty();
        closeQuietly(producer);
        newProducer();
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
            consumer.subscribe(sourceTopics, new Rebalance());
            lastCommit = System.currentTimeMillis();
            while (running) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    // While stores restore, the group consumer is only polled to stay a member (and to
                    // feed tasks already running); the restore consumer does the waiting.
                    records = consumer.poll(restoring.isEmpty() ? Duration.ofMillis(config.pollMs()) : Duration.ZERO);
                } catch (WakeupException e) {
                    if (running) {
                        throw e;
                    }
                    break;
                }
                if (assignor.assignmentError() != null) {
                    throw new IllegalStateException(assignor.assignmentError());
                }
                if (!restoring.isEmpty()) {
                    startRestored(restorer.step(Duration.ofMillis(config.pollMs())));
                }
                standbys.step();
                long now = System.currentTimeMillis();
                for (TopicPartition tp : records.partitions()) {
                    StreamTask task = taskOf(tp);
                    List<ConsumerRecord<byte[], byte[]>> batch = records.records(tp);
                    for (ConsumerRecord<byte[], byte[]> r : batch) {
                        task.process(
                                new RawRecord(
                                        r.topic(),
                                        r.partition(),
                                        r.offset(),
                                        r.timestamp(),
                                        r.key(),
                                        r.value(),
                                        r.headers()),
                                now);
                    }
                    consumed.put(tp, batch.get(batch.size() - 1).offset() + 1);
                }
                // Read again: processing a batch can take long (a slow user function), and the commit
                // interval and processing-time timers are about the clock, not about the last poll.
                // Advancing the clock also ends each task's batch (StreamTask.advanceProcessingTime).
                now = System.currentTimeMillis();
                for (StreamTask task : tasks.values()) {
                    task.advanceProcessingTime(now);
                }
                if (!assignor.rebalancing()
                        && (now - lastCommit >= config.commitIntervalMs()
                                || tasks.values().stream().anyMatch(StreamTask::needsCommit)
                                || (tasks.values().stream().anyMatch(StreamTask::commitRequested) && caughtUp()))) {
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
            }
            commit();
        } catch (Throwable e) {
            failure = e;
        } finally {
            shutdown();
        }
        if (failure != null) {
            log.error("Stream thread {} failed", getName(), failure);
            onFailure.accept(failure);
        }
    }

    /**
     * Whether this thread has read everything its running tasks' partitions held when the consumer
     * last heard from the broker: then a commit a task asked for is worth making now.
     */
    private boolean caughtUp() {
        for (TopicPartition tp : taskOfPartition.keySet()) {
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
        }
    }

    /** Commits every task: see the class docs for the order of the steps. */
    private void commit() {
        if (tasks.isEmpty() || (consumed.isEmpty() && !transactionOpen)) {
            return;
        }
        List<PreparedTask> prepared = new ArrayList<>();
        tasks.forEach((id, task) -> prepared.add(new PreparedTask(id, task, task.prepareCommit())));
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<StreamTask, Map<TopicPartition, String>> times = new HashMap<>();
        consumed.forEach((tp, next) -> {
            String time =
                    times.computeIfAbsent(taskOf(tp), StreamTask::committedTime).get(tp);
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
        purger.committed(offsets);
        prepared.forEach(p -> p.task().completeCommit(p.flushes(), changelogOffsets(p.id(), p.flushes(), offsets)));
    }

    /** A task whose commit is under way, with its stores' part of it. */
    private record PreparedTask(TaskId id, StreamTask task, List<TaskStores.StoreFlush> flushes) {}

    /** The task reading {@code partition}: every record polled belongs to a partition of a running task. */
    private StreamTask taskOf(TopicPartition partition) {
        TaskId id = taskOfPartition.get(partition);
        StreamTask task = id == null ? null : tasks.get(id);
        if (task == null) {
            throw new IllegalStateException("No running task reads " + partition);
        }
        return task;
    }

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
                    metadata.put(
                            flush.store(), Map.of(StoreRestorer.OFFSET_KEY, StoreRestorer.offsetBytes(input.offset())));
                }
                continue;
            }
            Long last = collector.lastOffset(changelog);
            if (spec.logged() && last != null && !flush.flush().changes().isEmpty()) {
                // The next offset after the last change: this transaction's commit marker or a later record.
                metadata.put(flush.store(), Map.of(StoreRestorer.OFFSET_KEY, StoreRestorer.offsetBytes(last + 1)));
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
            Set<TaskId> revoked = tasksReading(partitions);
            if (revoked.isEmpty()) {
                return;
            }
            if (!tasks.isEmpty()) {
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
            Set<TaskId> assigned = assignor.assignedTasks();
            for (TaskId id : standbys.ids()) {
                if (!assignor.assignedStandbys().contains(id) && !assigned.contains(id)) {
                    standbys.remove(id);
                }
            }
            Set<TaskId> added = new TreeSet<>(assigned);
            added.removeAll(tasks.keySet());
            added.removeAll(restoring.keySet());
            openActive(added, partitions);
            for (TaskId id : assignor.assignedStandbys()) {
                if (!standbys.ids().contains(id) && !tasks.containsKey(id) && !restoring.containsKey(id)) {
                    standbys.add(id, openStores(id, false));
                }
            }
            publishOwned();
            if (restoring.isEmpty()) {
                listener.onRunning(StreamThread.this);
            }
        }

        /**
         * Opens newly assigned tasks for restoring: a standby copy kept here is handed over as it is, so
         * that only its lag is replayed.
         */
        private void openActive(Set<TaskId> added, Collection<TopicPartition> partitions) {
            if (added.isEmpty()) {
                return;
            }
            Set<TopicPartition> inputs = new HashSet<>();
            added.forEach(id -> inputs.addAll(inputPartitions(id)));
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(inputs);
            // Start exactly where the event time we restore was committed: the consumer would otherwise
            // fetch the committed offsets again, and a commit landing in between would pair one
            // commit's offsets with another's event time. Every input of the task, not only the partitions
            // new to this consumer: a task dropped after a failed commit comes back on partitions the
            // consumer kept, whose positions are past the work that was dropped.
            List<TopicPartition> fromReset = new ArrayList<>();
            for (TopicPartition tp : inputs) {
                OffsetAndMetadata offset = committed.get(tp);
                if (offset != null) {
                    consumer.seek(tp, offset);
                } else if (!partitions.contains(tp)) {
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
                try {
                    restorer.register(id, stores, applicationId, committed);
                } catch (RuntimeException e) {
                    stores.close();
                    throw e;
                }
                restoring.put(id, new Restoring(stores, committed));
                consumer.pause(inputPartitions(id));
            }
            log.info("Thread {} restores the state of tasks {}", getName(), restoring.keySet());
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            closeTasksDirty();
        }
    }

    /** An assigned task waiting for its stores, with the committed offsets its partitions had then. */
    private record Restoring(TaskStores stores, Map<TopicPartition, OffsetAndMetadata> committed) {}

    /** @param queryable whether queries may read them once restored (an active task's, not a standby copy's) */
    private TaskStores openStores(TaskId id, boolean queryable) {
        return new TaskStores(
                topology.storesOf(topology.subtopologies().get(id.subtopology())),
                config.stateDir().resolve(applicationId).resolve(id.toString()),
                config.cacheMaxBytesPerTask(),
                globals,
                queryable ? localStores.forTask(id) : null);
    }

    /** Tells the assignor what this thread holds, for its next subscription. */
    private void publishOwned() {
        assignor.owned(union(tasks.keySet(), restoring.keySet()), standbys.ids());
    }

    private List<TopicPartition> inputPartitions(TaskId id) {
        return WeirPartitionAssignor.inputPartitions(topology, applicationId, id);
    }

    /** The running or restoring tasks that read any of {@code partitions}. */
    private Set<TaskId> tasksReading(Collection<TopicPartition> partitions) {
        Set<TaskId> found = new TreeSet<>();
        for (TaskId id : union(tasks.keySet(), restoring.keySet())) {
            if (inputPartitions(id).stream().anyMatch(partitions::contains)) {
                found.add(id);
            }
        }
        return found;
    }

    private static Set<TaskId> union(Set<TaskId> a, Set<TaskId> b) {
        Set<TaskId> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** Turns tasks whose stores are restored into running tasks and lets their input flow. */
    private void startRestored(Set<TaskId> restored) {
        if (restored.isEmpty()) {
            return;
        }
        for (TaskId id : restored) {
            Restoring r = Objects.requireNonNull(restoring.remove(id), "a restored task was restoring");
            r.stores().ready();
            tasks.put(id, newTask(id, r));
            consumer.resume(inputPartitions(id));
        }
        activeTasks = tasks.keySet().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet());
        log.info("Thread {} runs tasks {}", getName(), tasks.keySet());
        if (restoring.isEmpty()) {
            listener.onRunning(this);
        }
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
                        taskCounts.get(topology.writerOf(source.topic()).id()));
            }
        }
        TaskMetrics taskMetrics = metrics.computeIfAbsent(id, k -> new TaskMetrics());
        return new StreamTask(
                id,
                applicationId,
                sub,
                restored.stores(),
                collector,
                taskMetrics,
                System.currentTimeMillis(),
                upstream,
                committedTime);
    }

    private void closeTasks() {
        closeTasks(union(tasks.keySet(), restoring.keySet()));
    }

    /** Closes the given running or restoring tasks and forgets their partitions. */
    private void closeTasks(Set<TaskId> ids) {
        for (TaskId id : ids) {
            StreamTask task = tasks.remove(id);
            if (task != null) {
                try {
                    task.close();
                } catch (RuntimeException e) {
                    log.warn("Closing task {} failed", id, e);
                }
            }
            Restoring r = restoring.remove(id);
            if (r != null) {
                restorer.remove(id);
                r.stores().close();
            }
            for (TopicPartition tp : inputPartitions(id)) {
                taskOfPartition.remove(tp);
                consumed.remove(tp);
            }
        }
        activeTasks = tasks.keySet().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet());
        publishOwned();
    }

    /** After a lost assignment or a failed commit: drop uncommitted work; the stores keep only what was committed. */
    private void closeTasksDirty() {
        for (StreamTask task : tasks.values()) {
            task.stores().names().forEach(n -> task.stores().cache(n).discard());
        }
        closeTasks();
        if (transactionOpen) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException e) {
                log.warn("Aborting the open transaction failed", e);
            }
            transactionOpen = false;
        }
    }

    private void shutdown() {
        if (failure != null) {
            closeTasksDirty();
        } else {
            closeTasks();
        }
        closeQuietly(restorer);
        closeQuietly(standbys);
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

    /** This thread's name and running tasks; callable from any thread. */
    ThreadMetadata metadata() {
        return new ThreadMetadata(
                getName(),
                activeTasks,
                standbys.ids().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * Counters of this thread's tasks, summed by node/metric, and its standby copies: {@code
     * standby/tasks} and {@code standby/lag-records}, the changelog records they have not read yet.
     */
    Map<String, Long> metricsSnapshot() {
        Map<String, Long> sum = new TreeMap<>();
        metrics.values().forEach(m -> m.snapshot().forEach((k, v) -> sum.merge(k, v, Long::sum)));
        sum.put("standby/tasks", (long) standbys.ids().size());
        sum.put("standby/lag-records", standbys.lag());
        return sum;
    }
}
