package io.weir.streams.test;

import io.weir.streams.Topology;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.RecordSize;
import io.weir.streams.internals.processor.TopicLimits;
import io.weir.streams.internals.state.CacheBudget;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.SerdeKeyValueStore;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.table.SourceRows;
import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.internals.table.TableVersions;
import io.weir.streams.internals.task.RawRecord;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.testdriver.CommittedTimes;
import io.weir.streams.internals.testdriver.StoreRows;
import io.weir.streams.internals.testdriver.TopicLog;
import io.weir.streams.internals.topology.GlobalTableSpec;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.internals.window.WindowStoreEntries;
import io.weir.streams.state.StoreType;
import io.weir.streams.state.VersionedKeyValueStore;
import io.weir.streams.state.WindowEntry;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link Topology} deterministically, without a broker, on the same tasks, operators and state
 * stores as the Kafka runtime.
 *
 * <p>Time is virtual: processing time starts at the first piped record (unless {@link
 * TestDriverConfig#withStartTime} says otherwise) and moves only when a piped record says it arrives later
 * ({@link TestRecord#arrivingAt}) or on {@link #advanceTime}. Moving it lets idle partitions stop
 * holding the watermark back and commits every {@code commitInterval} (the caches flush to the
 * stores and changelogs). Event time comes from the records. {@link #endOfInput()} moves every
 * watermark to +infinity, firing every window.
 *
 * <p>Topics: each input topic has the partitions its config gives (default 1) and one task per
 * partition number; outputs are readable immediately, in write order. Side outputs and changelogs
 * ({@code <application.id>-<store>-changelog}) are topics like any other, and so are dead-letter topics,
 * from the first record an error handler sends there.
 *
 * <p>State: a driver given a state directory ({@link TestDriverConfig#withStateDir}) that an earlier
 * driver of the same topology committed to and closed restores from it as a restarted instance does:
 * its RocksDB stores hold what was committed, and each task's watermark starts from the event time
 * committed with its inputs (so lateness is judged as before), not from -infinity. In-memory stores
 * start empty there, since their changelogs were the earlier driver's topics; {@link #restart()} keeps
 * them, replaying those changelogs. Every output record carries the watermark of the task that wrote it
 * ({@link OutputRecord#watermark()}).
 *
 * <p>Single-threaded. Owns its tasks, stores and state dir: {@link #close()} releases them all.
 *
 * <p>Why one class: it is the whole public face of a deterministic run (topics, virtual time, commits,
 * inspection), each part a few methods over the same tasks and topic logs; the topic logs are apart,
 * in {@code TopicLog}, and the tasks are the runtime's own.
 */
public final class TestDriver implements AutoCloseable {

    /** How long piping waits for an asynchronous operator's calls to make room. */
    private static final Duration ASYNC_ROOM_WAIT = Duration.ofSeconds(10);

    private static final long ASYNC_ROOM_POLL_NANOS = 1_000_000;

    private static final Logger log = LoggerFactory.getLogger(TestDriver.class);

    private final TopologySpec topology;
    private final TestDriverConfig config;
    private final Path stateDir;
    private final boolean ownsStateDir;
    private final Map<TaskId, StreamTask> tasks = new TreeMap<>();
    /** Shared by every task's caches, as a stream thread's part of the instance's budget is. */
    private final CacheBudget cacheBudget;
    /** Tasks that processed a record since their last commit in the commit round in progress. */
    private final Set<TaskId> receivedSinceCommit = new HashSet<>();

    private final Map<TaskId, CommittedTimes> committedTimes = new HashMap<>();
    private final Map<String, SubtopologySpec> subtopologyOfSource = new HashMap<>();
    private final Map<String, TopicLog> topics = new LinkedHashMap<>();
    private final Set<String> writtenTopics;
    private Map<Integer, Integer> taskCounts = Map.of();
    private final ArrayDeque<Map.Entry<String, TopicLog.Entry>> pending = new ArrayDeque<>();
    /** What the tasks wrote since the last commit, by topic: what a crash aborts. */
    private final Map<TopicLog, List<TopicLog.Entry>> uncommittedWrites = new LinkedHashMap<>();
    /** The input records piped since the last commit, in order: what a crash has the tasks read again. */
    private final List<Map.Entry<String, TopicLog.Entry>> uncommittedInput = new ArrayList<>();

    private boolean committing;
    private long processingTime;
    /** What every topic the topology writes accepts. */
    private final TopicLimits topicLimits;
    // False until the first record or time advance when no start time is configured.
    private boolean clockStarted;
    private long lastCommit;
    private static final int MAX_COMMIT_ROUNDS = 16;
    private boolean closed;
    /** The global tables by store name, and by topic; the driver owns them across restarts. */
    private final Map<String, GlobalStore<?, ?>> globals = new LinkedHashMap<>();

    private final Map<String, GlobalStore<?, ?>> globalsByTopic = new HashMap<>();

    /**
     * A driver of {@code topology} with {@link TestDriverConfig#defaults()}.
     *
     * @param topology the topology to run
     */
    public TestDriver(Topology topology) {
        this(topology, TestDriverConfig.defaults());
    }

    /**
     * A driver of {@code topology} with {@code config}: its tasks open (restoring from the state directory, if
     * one is given), and its global tables are made.
     *
     * @param topology the topology to run
     * @param config the partitions, clock, limits and state directory
     */
    public TestDriver(Topology topology, TestDriverConfig config) {
        this.topology = TopologyAccess.spec(topology).resolvePatterns(config.topics(), config.applicationId());
        this.config = config;
        this.cacheBudget = new CacheBudget(config.cacheMaxBytes());
        this.topicLimits = new TopicLimits(
                config.maxRecordBytes(),
                TimeMath.millis(config.timestampsBefore()),
                TimeMath.millis(config.timestampsAfter()));
        this.topology.idlenessWarnings().forEach(log::warn);
        this.topology.configureSerdes(config.serdeConfig());
        this.processingTime = config.startTime().map(Instant::toEpochMilli).orElse(0L);
        this.clockStarted = config.startTime().isPresent();
        this.lastCommit = processingTime;
        this.ownsStateDir = config.stateDir().isEmpty();
        this.stateDir = config.stateDir().orElseGet(TestDriver::tempDir);
        this.writtenTopics = new TreeSet<>(this.topology.outputTopics());
        String app = config.applicationId();
        try {
            for (GlobalTableSpec spec : this.topology.globalTables()) {
                GlobalStore<?, ?> store =
                        GlobalStore.open(spec, stateDir.resolve(app).resolve("global"), RocksDbResources.unshared());
                globals.put(spec.storeName(), store);
                globalsByTopic.put(spec.topic(), store);
                topics.put(spec.topic(), TopicLog.offsetsOnly(spec.topic(), config.partitions(spec.topic())));
            }
            Map<Integer, Integer> taskCounts = this.topology.taskCounts(config::partitions);
            Set<String> tableTopics = new HashSet<>();
            this.topology
                    .subtopologies()
                    .forEach(sub -> sub.sources().stream()
                            .filter(SourceSpec::table)
                            .forEach(source -> tableTopics.add(source.topic(app))));
            for (SubtopologySpec sub : this.topology.subtopologies()) {
                int partitions = taskCount(taskCounts, sub);
                for (String topic : sub.sourceTopics(app)) {
                    // An input (or repartition topic) the topology does not also write to a reader cannot be
                    // read: keep its offsets only; repartitioned records reach their task through the queue.
                    // A table's topic is its store's changelog: kept whole, to restore from.
                    topics.put(
                            topic,
                            writtenTopics.contains(topic)
                                    ? writtenLog(topic, partitions)
                                    : tableTopics.contains(topic)
                                            ? TopicLog.keepingAll(topic, partitions)
                                            : TopicLog.offsetsOnly(topic, partitions));
                }
                sub.sources().forEach(source -> subtopologyOfSource.put(source.topic(app), sub));
                for (StoreSpec spec : this.topology.storesOf(sub)) {
                    if (spec.ownChangelog()) {
                        String changelog = spec.changelogTopic(app);
                        topics.put(changelog, writtenLog(changelog, partitions));
                        writtenTopics.add(changelog);
                    }
                }
            }
            for (String topic : this.topology.outputTopics()) {
                topics.computeIfAbsent(topic, t -> writtenLog(t, config.partitions(t)));
            }
            this.taskCounts = taskCounts;
            openTasks();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Opens every task on the state directory: stores as they were committed there (in-memory stores
     * replayed from their changelogs), watermarks from the event times of the last commit.
     */
    private void openTasks() {
        String app = config.applicationId();
        for (SubtopologySpec sub : topology.subtopologies()) {
            Map<String, Integer> upstream = new HashMap<>();
            sub.sources().stream()
                    .filter(SourceSpec::repartition)
                    .forEach(source -> upstream.put(
                            source.topic(app),
                            taskCounts.get(topology.writerOf(source.topic()).id())));
            List<StoreSpec> stores = topology.storesOf(sub);
            for (int p = 0; p < taskCount(taskCounts, sub); p++) {
                TaskId id = new TaskId(sub.id(), p);
                Path taskDir = stateDir.resolve(app).resolve(id.toString());
                TaskStores taskStores = new TaskStores(stores, taskDir, cacheBudget, globals);
                for (StoreSpec spec : stores) {
                    if (spec.type() == StoreType.IN_MEMORY && spec.logged()) {
                        replayChangelog(taskStores, spec, p);
                    }
                }
                TaskCollector collector = new TaskCollector();
                CommittedTimes committed = new CommittedTimes(taskDir);
                committedTimes.put(id, committed);
                StreamTask task = new StreamTask(
                        id,
                        app,
                        sub,
                        taskStores,
                        collector,
                        new TaskMetrics(id.toString()),
                        processingTime,
                        upstream,
                        committed.read(),
                        config.maxFutureSkew().map(TimeMath::millis).orElse(-1L));
                collector.task = task;
                tasks.put(id, task);
            }
        }
    }

    /**
     * Restores an in-memory store from its changelog partition, as the runtime does on start: a source
     * table's store from its topic, every record of which was processed and committed.
     */
    private void replayChangelog(TaskStores stores, StoreSpec spec, int partition) {
        StoreBatch batch = new StoreBatch();
        SourceSpec source = spec.source();
        SourceRows<?, ?> rows = source == null ? null : new SourceRows<>(source.consumed());
        String changelog = spec.changelogTopic(config.applicationId());
        for (TopicLog.Entry e : topic(changelog).all(partition)) {
            if (rows == null) {
                batch.put(Objects.requireNonNull(e.key(), "changelog records have keys"), e.value());
                continue;
            }
            StoreBatch.Put put = rows.restored(changelog, e.headers(), e.key(), e.value(), e.timestamp());
            if (put != null) {
                batch.put(put.key(), put.value());
            }
        }
        stores.cache(spec.name()).store().restore(batch);
    }

    /**
     * Restarts the application as after a clean shutdown: every task commits and closes, then opens
     * again on the state directory, as a restarted instance would: RocksDB stores as committed,
     * in-memory stores restored from their changelogs, each task's watermark from its last commit.
     * Topics, their records and processing time carry on; metrics start from zero, as in a new process.
     * Snapshot and restore in one call, for tests of what survives a restart.
     */
    public void restart() {
        checkOpen();
        commit();
        RuntimeException failure = closeTasks(true);
        if (failure != null) {
            throw failure;
        }
        openTasks();
    }

    /**
     * Crashes the application between two commits and starts it again, as a process killed without a
     * clean shutdown and restarted under exactly-once: the transaction in progress aborts, so every record
     * the tasks wrote since the last commit (outputs, side outputs, changelogs, repartition and dead-letter
     * topics) is taken back; every task reopens from the last commit, RocksDB stores as committed (their
     * write-back caches are lost) and in-memory stores replayed from their changelogs, each watermark from
     * the event times committed with its inputs; and the input records piped since the last commit are read
     * again. The output topics then hold exactly what a run without the crash would have written (given
     * deterministic operators), which is what an exactly-once test checks. Global tables, which are not
     * part of the transaction, keep what they applied. Processing time carries on; metrics start from zero.
     *
     * <p>A test that read an output before the crash has seen records the crash took back, as a {@code
     * read_uncommitted} consumer would; its reader moves back past them, so it next reads what replaced them.
     */
    public void crash() {
        checkOpen();
        uncommittedWrites.forEach(TopicLog::discard);
        uncommittedWrites.clear();
        pending.clear();
        receivedSinceCommit.clear();
        RuntimeException failure = closeTasks(true);
        if (failure != null) {
            throw failure;
        }
        openTasks();
        List<Map.Entry<String, TopicLog.Entry>> replay = List.copyOf(uncommittedInput);
        uncommittedInput.clear();
        for (Map.Entry<String, TopicLog.Entry> input : replay) {
            uncommittedInput.add(input);
            deliver(input.getKey(), input.getValue());
            drain();
        }
    }

    /** One task's collector: what it writes is stamped with the task's watermark at that moment. */
    private final class TaskCollector implements RecordCollector {
        @Nullable
        StreamTask task;

        @Override
        public void send(
                String topic,
                @Nullable Integer partition,
                byte @Nullable [] key,
                byte @Nullable [] value,
                Headers headers,
                long timestamp) {
            collect(topic, partition, key, value, headers, timestamp, task == null ? Long.MIN_VALUE : task.watermark());
        }

        @Override
        public int partitionsFor(String topic) {
            return topic(topic).partitions();
        }

        @Override
        public TopicLimits limits(String topic) {
            return topicLimits;
        }

        @Override
        public long now() {
            return processingTime;
        }
    }

    private TopicLog writtenLog(String topic, int partitions) {
        return config.keepReadRecords()
                ? TopicLog.keepingAll(topic, partitions)
                : TopicLog.keepingUnread(topic, partitions);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("weir-test-driver-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a state dir for the TestDriver", e);
        }
    }

    /**
     * A handle to pipe records into source topic {@code topic}.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic a source topic of the topology, or a global table's topic
     * @param keySerde serializes the keys piped
     * @param valueSerde serializes the values piped
     * @return a handle that pipes into {@code topic}
     * @throws IllegalArgumentException if the topology does not read {@code topic}
     */
    public <K, V> TestInputTopic<K, V> input(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        if (!topology.sourceTopics().contains(topic) && !globalsByTopic.containsKey(topic)) {
            throw new IllegalArgumentException("'" + topic + "' is not an input topic of this topology; its inputs are "
                    + topology.sourceTopics()
                    + (globalsByTopic.isEmpty() ? "" : " and its global tables' " + globalsByTopic.keySet()));
        }
        return new TestInputTopic<>(this, topic, keySerde.serializer(), valueSerde.serializer());
    }

    /**
     * A reader of {@code topic}, a topic the topology writes (sink, side output or changelog).
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic a topic the topology writes
     * @param keySerde deserializes the keys read
     * @param valueSerde deserializes the values read
     * @return a new reader, at the topic's oldest record held
     * @throws IllegalArgumentException if the topology does not write {@code topic} (yet)
     */
    public <K, V> TestOutputTopic<K, V> output(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        if (!writtenTopics.contains(topic)) {
            throw new IllegalArgumentException("'" + topic + "' is not written by this topology; it writes "
                    + writtenTopics + " (a dead-letter topic is readable once a record was written to it)");
        }
        return new TestOutputTopic<>(topic(topic), keySerde.deserializer(), valueSerde.deserializer());
    }

    void pipeRaw(
            String topic,
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            @Nullable Headers headers,
            @Nullable Long timestamp,
            @Nullable Long arrivesAt) {
        checkOpen();
        Headers h = headers == null ? new RecordHeaders() : headers;
        checkSize("piped to", topic, key, value, h);
        if (!clockStarted) {
            startClock(arrivesAt != null ? arrivesAt : timestamp != null ? timestamp : 0L);
        }
        if (arrivesAt != null) {
            advanceTo(arrivesAt);
        }
        long ts = timestamp != null ? timestamp : processingTime;
        TopicLog.Entry entry = topic(topic).append(partition, key, value, h, ts, Long.MIN_VALUE);
        GlobalStore<?, ?> global = globalsByTopic.get(topic);
        if (global != null) {
            // A global table takes the record at once, as if its thread had read it before the next record.
            global.apply(
                    entry.partition(),
                    List.of(new GlobalStore.Raw(entry.partition(), entry.offset(), key, value, h, ts)),
                    entry.offset() + 1);
            return;
        }
        uncommittedInput.add(Map.entry(topic, entry));
        deliver(topic, entry);
        drain();
    }

    /** Starts the processing clock at {@code time}, before anything was processed (see {@link TestDriverConfig#withStartTime}). */
    private void startClock(long time) {
        clockStarted = true;
        processingTime = time;
        lastCommit = time;
        tasks.values().forEach(task -> task.startClock(time));
    }

    /** Refuses a record larger than {@link TestDriverConfig#maxRecordBytes()}, as Kafka's producer would. */
    private void checkSize(String verb, String topic, byte @Nullable [] key, byte @Nullable [] value, Headers headers) {
        long size = RecordSize.batchUpperBound(key, value, headers);
        if (size > config.maxRecordBytes()) {
            throw new RecordTooLargeException("The record " + verb + " topic '" + topic + "' is up to " + size
                    + " bytes in a batch, more than the " + config.maxRecordBytes() + " bytes Kafka's producer accepts "
                    + "by default (max.request.size; see TestDriverConfig.withMaxRecordBytes)");
        }
    }

    /** Processes a record of an input or repartition topic in the task reading its partition. */
    private void deliver(String topic, TopicLog.Entry entry) {
        StreamTask task = taskFor(topic, entry.partition());
        awaitRoom(task);
        task.process(
                new RawRecord(
                        topic,
                        entry.partition(),
                        entry.offset(),
                        entry.timestamp(),
                        entry.key(),
                        entry.value(),
                        new RecordHeaders(entry.headers().toArray())),
                processingTime);
        // Each record is a batch of its own, as if every record came from a poll of its own.
        task.endBatch();
        receivedSinceCommit.add(task.id());
        if (task.needsCommit()) {
            // A full cache commits the application, as a stream thread commits all its tasks in one
            // transaction; within a commit, the task commits in the round in progress.
            if (committing) {
                commit(task);
            } else {
                commit();
            }
        }
    }

    /**
     * Waits, in real time, until {@code task} takes input again: an operator of it holds all the records it
     * may for asynchronous calls, and only their completions, which come on other threads, make room. The
     * virtual clock stands still meanwhile, so no call times out.
     *
     * @throws IllegalStateException if no room is made within {@link #ASYNC_ROOM_WAIT}
     */
    private void awaitRoom(StreamTask task) {
        long deadline = System.nanoTime() + ASYNC_ROOM_WAIT.toNanos();
        while (!task.acceptsInput()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Task " + task.id() + " holds as many records as its asynchronous "
                        + "operator's capacity allows, and none of their calls completed within " + ASYNC_ROOM_WAIT
                        + ": complete calls (or advance time past their timeout) before piping more, or raise the "
                        + "capacity");
            }
            LockSupport.parkNanos(ASYNC_ROOM_POLL_NANOS);
            task.advanceProcessingTime(processingTime);
            drain();
        }
    }

    /** Delivers repartitioned records (data and watermark marks) until none is left, in write order. */
    private void drain() {
        while (!pending.isEmpty()) {
            Map.Entry<String, TopicLog.Entry> next = pending.poll();
            deliver(next.getKey(), next.getValue());
        }
    }

    private void collect(
            String topic,
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp,
            long watermark) {
        topicLimits.check(topic, key, value, headers, timestamp, processingTime);
        // The only topics a topology writes without declaring them are dead-letter topics, which error
        // handlers choose at run time: they exist from their first record on.
        TopicLog log = topics.computeIfAbsent(topic, t -> {
            writtenTopics.add(t);
            return writtenLog(t, config.partitions(t));
        });
        TopicLog.Entry entry =
                log.append(partition, key, value, new RecordHeaders(headers.toArray()), timestamp, watermark);
        uncommittedWrites.computeIfAbsent(log, l -> new ArrayList<>()).add(entry);
        if (subtopologyOfSource.containsKey(topic)) {
            pending.add(Map.entry(topic, entry));
        }
    }

    /**
     * Moves processing time forward by {@code d}.
     *
     * @param d how far to move; not negative
     * @throws IllegalArgumentException if {@code d} is negative
     */
    public void advanceTime(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("Processing time never moves back; advanceTime was given " + d);
        }
        advanceTo(TimeMath.plus(processingTime, TimeMath.millis(d)));
    }

    /**
     * Moves processing time to {@code time} (never back).
     *
     * @param time the new processing time; an earlier one leaves the clock where it is
     */
    public void advanceTimeTo(Instant time) {
        advanceTo(time.toEpochMilli());
    }

    private void advanceTo(long time) {
        checkOpen();
        clockStarted = true;
        if (time <= processingTime) {
            return;
        }
        processingTime = time;
        for (StreamTask task : tasks.values()) {
            task.advanceProcessingTime(time);
            drain();
        }
        if (processingTime >= TimeMath.plus(lastCommit, TimeMath.millis(config.commitInterval()))) {
            commit();
        }
    }

    /**
     * Commits every task now: tables emit their changes held for the commit, and caches flush to the
     * changelogs and the stores. Upstream sub-topologies commit first, and what they emit at the commit is
     * delivered before the tasks reading it commit, so one commit carries a change through the topology.
     */
    public void commit() {
        checkOpen();
        committing = true;
        try {
            commitRounds();
        } finally {
            committing = false;
        }
        uncommittedWrites.clear();
        uncommittedInput.clear();
        lastCommit = processingTime;
    }

    private void commitRounds() {
        Set<TaskId> due = new HashSet<>(tasks.keySet());
        // A foreign-key join's tasks write to each other: what one receives after it committed (a response
        // to what it sent at its commit) is committed in another round, so a commit carries a change all
        // the way round. Rounds are few: each only carries what the round before sent.
        for (int round = 0; !due.isEmpty(); round++) {
            if (round == MAX_COMMIT_ROUNDS) {
                throw new IllegalStateException("The topology still sent records between its tasks after "
                        + MAX_COMMIT_ROUNDS + " commit rounds: tasks " + due + " keep receiving records");
            }
            receivedSinceCommit.clear();
            for (SubtopologySpec sub : upstreamFirst()) {
                for (StreamTask task : tasks.values()) {
                    if (task.id().subtopology() == sub.id() && due.contains(task.id())) {
                        commit(task);
                        receivedSinceCommit.remove(task.id());
                        drain();
                    }
                }
            }
            due = new HashSet<>(receivedSinceCommit);
        }
    }

    private void commit(StreamTask task) {
        task.completeCommit(task.prepareCommit(), Map.of());
        Objects.requireNonNull(committedTimes.get(task.id()), "every task has its committed times")
                .committed(task.committedTime());
    }

    /** The input is complete: every watermark moves to +infinity (every window fires), then all tasks commit. */
    public void endOfInput() {
        checkOpen();
        // Upstream sub-topologies first, so what they emit at the end reaches their readers before those end.
        for (SubtopologySpec sub : upstreamFirst()) {
            for (StreamTask task : tasks.values()) {
                if (task.id().subtopology() == sub.id()) {
                    task.endOfInput();
                    drain();
                }
            }
        }
        commit();
    }

    /** Sub-topologies ordered so that each comes after those writing the repartition topics it reads. */
    private List<SubtopologySpec> upstreamFirst() {
        List<SubtopologySpec> ordered = new ArrayList<>();
        for (SubtopologySpec sub : topology.subtopologies()) {
            addAfterWriters(sub, ordered, new HashSet<>());
        }
        return ordered;
    }

    /** Adds {@code sub} after its writers; in a cycle (a foreign-key join's two sides) the first reached comes first. */
    private void addAfterWriters(SubtopologySpec sub, List<SubtopologySpec> ordered, Set<Integer> visiting) {
        if (ordered.contains(sub) || !visiting.add(sub.id())) {
            return;
        }
        sub.sources().stream()
                .filter(SourceSpec::repartition)
                .forEach(source -> addAfterWriters(topology.writerOf(source.topic()), ordered, visiting));
        ordered.add(sub);
    }

    /**
     * The driver's processing time in epoch milliseconds.
     *
     * @return the processing time
     */
    public long processingTime() {
        return processingTime;
    }

    /**
     * The watermark of every task, by task id ({@code <subtopology>_<partition>}).
     *
     * @return a new sorted map of the watermarks, in epoch milliseconds
     */
    public Map<String, Long> watermarks() {
        Map<String, Long> out = new TreeMap<>();
        tasks.forEach((id, task) -> out.put(id.toString(), task.watermark()));
        return out;
    }

    /**
     * The watermark of the task reading {@code partition} of {@code topic}.
     *
     * @param topic a source topic
     * @param partition one of its partitions
     * @return the task's watermark, in epoch milliseconds
     * @throws IllegalArgumentException if no task reads that partition
     */
    public long watermark(String topic, int partition) {
        return taskFor(topic, partition).watermark();
    }

    /**
     * {@code W(p) = maxSeen - delay - 1} of one input partition (Long.MIN_VALUE before its first record).
     *
     * @param topic a source topic
     * @param partition one of its partitions
     * @return the partition's watermark, in epoch milliseconds
     * @throws IllegalArgumentException if no task reads that partition
     */
    public long partitionWatermark(String topic, int partition) {
        return taskFor(topic, partition).partitionWatermark(new TopicPartition(topic, partition));
    }

    /**
     * Whether an input partition is idle (left out of its task's watermark).
     *
     * @param topic a source topic
     * @param partition one of its partitions
     * @return true if the partition is idle now
     * @throws IllegalArgumentException if no task reads that partition
     */
    public boolean isIdle(String topic, int partition) {
        return taskFor(topic, partition).isIdle(new TopicPartition(topic, partition));
    }

    private static int taskCount(Map<Integer, Integer> taskCounts, SubtopologySpec sub) {
        return Objects.requireNonNull(taskCounts.get(sub.id()), "every sub-topology has a task count");
    }

    /** A topic the driver keeps: an input, repartition, output, changelog or dead-letter topic. */
    private TopicLog topic(String name) {
        return Objects.requireNonNull(topics.get(name), "a topic this driver keeps");
    }

    private StreamTask taskFor(String topic, int partition) {
        SubtopologySpec sub = subtopologyOfSource.get(topic);
        StreamTask task = sub == null ? null : tasks.get(new TaskId(sub.id(), partition));
        if (task == null) {
            throw new IllegalArgumentException("No task reads partition " + partition + " of '" + topic + "'");
        }
        return task;
    }

    /**
     * The metrics of all tasks, summed per node and metric.
     *
     * @return a snapshot of the metrics
     */
    public TestMetrics metrics() {
        Map<String, Long> sum = new TreeMap<>();
        for (StreamTask task : tasks.values()) {
            task.metrics().snapshot().forEach((k, v) -> sum.merge(k, v, Long::sum));
        }
        return new TestMetrics(sum);
    }

    /**
     * Every window held in window store {@code store}, across tasks (committed or not).
     *
     * @param <K> the key type
     * @param <V> the value (aggregate) type
     * @param store the window store's name
     * @param keySerde the store's key serde
     * @param valueSerde the store's value serde
     * @return a new list of the windows, task by task
     * @throws IllegalArgumentException if the topology has no store {@code store}
     */
    public <K, V> List<WindowEntry<K, V>> windowStore(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        if (!topology.stores().containsKey(store)) {
            throw new IllegalArgumentException("No store named '" + store + "'; the topology has "
                    + topology.stores().keySet());
        }
        List<WindowEntry<K, V>> entries = new ArrayList<>();
        for (StreamTask task : tasks.values()) {
            if (task.stores().names().contains(store)) {
                entries.addAll(WindowStoreEntries.read(task.stores().cache(store), keySerde, valueSerde));
            }
        }
        return entries;
    }

    /**
     * Every entry of key-value store {@code store} (a keyed processor's), across tasks (committed or not).
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param store the key-value store's name
     * @param keySerde the store's key serde
     * @param valueSerde the store's value serde
     * @return a new map of the entries, task by task
     * @throws IllegalArgumentException if the topology has no store {@code store}
     */
    public <K, V> Map<K, V> keyValueStore(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        if (!topology.stores().containsKey(store)) {
            throw new IllegalArgumentException("No store named '" + store + "'; the topology has "
                    + topology.stores().keySet());
        }
        Map<K, V> entries = new LinkedHashMap<>();
        for (StreamTask task : tasks.values()) {
            if (task.stores().names().contains(store)) {
                new SerdeKeyValueStore<>(task.stores().cache(store), keySerde, valueSerde).forEach(entries::put);
            }
        }
        return entries;
    }

    /**
     * Every row of table store {@code store} across tasks, committed or not: what the table holds now,
     * which is ahead of what it has emitted until the next commit. Any table's store: a source table's, an
     * aggregation's, a materialized {@code filter} or {@code mapValues}, a join's result (its values
     * computed by the joiner from the rows it holds), a global table's; and a keyed processor's key-value
     * store. The topology knows each store's serdes, so none are needed.
     *
     * @param <K> the table's key type
     * @param <V> the table's value type
     * @param store the table's store name
     * @return a new map of the rows, task by task
     * @throws IllegalArgumentException if the topology has no such store
     */
    public <K, V> Map<K, V> table(String store) {
        Map<K, V> rows = new LinkedHashMap<>();
        this.<K, V>readTable(store, (k, v, time) -> rows.put(k, v));
        return rows;
    }

    /**
     * {@link #table(String)} with each row's event time: the largest event time of the changes that made
     * it (-1 in a keyed processor's store, which keeps no times).
     *
     * @param <K> the table's key type
     * @param <V> the table's value type
     * @param store the table's store name
     * @return a new map of the rows with their event times, task by task
     */
    public <K, V> Map<K, ValueAndTimestamp<V>> timestampedTable(String store) {
        Map<K, ValueAndTimestamp<V>> rows = new LinkedHashMap<>();
        this.<K, V>readTable(store, (k, v, time) -> rows.put(k, new ValueAndTimestamp<>(v, time)));
        return rows;
    }

    /**
     * {@link #table(String)}, for tests written when the store's serdes had to be given: they are not
     * used, since the topology reads the store as it wrote it.
     *
     * @param <K> the table's key type
     * @param <V> the table's value type
     * @param store the table's store name
     * @param keySerde ignored
     * @param valueSerde ignored
     * @return what {@link #table(String)} returns
     */
    public <K, V> Map<K, V> table(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        return table(store);
    }

    @SuppressWarnings("unchecked") // the caller names the store's key and value types
    private <K, V> void readTable(String store, StoreRows.RowAction<K, V> action) {
        GlobalStore<?, ?> global = globals.get(store);
        if (global != null) {
            ((GlobalStore<K, V>) global).forEachRow((k, row) -> {
                if (row.value() != null) {
                    action.accept(k, row.value(), row.timestamp());
                }
            });
            return;
        }
        StoreSpec spec = topology.stores().get(store);
        if (spec == null || !(spec.queryable() instanceof KeyValueView<?, ?> view)) {
            throw new IllegalArgumentException("No table named '" + store + "'; the topology's tables are "
                    + tableNames() + (spec == null ? "" : " ('" + store + "' is not a table's store)"));
        }
        for (StreamTask task : tasks.values()) {
            if (task.stores().names().contains(store)) {
                StoreRows.read(task.stores().cache(store), (KeyValueView<K, V>) view, action);
            }
        }
    }

    /** The stores {@link #table(String)} reads, sorted. */
    private List<String> tableNames() {
        List<String> names = new ArrayList<>(globals.keySet());
        topology.stores().values().stream()
                .filter(s -> s.queryable() instanceof KeyValueView<?, ?>)
                .forEach(s -> names.add(s.name()));
        names.sort(null);
        return names;
    }

    /**
     * The versioned table in store {@code store} ({@code Materialized.versioned}), across tasks, committed or
     * not: each key's latest value by event time, and its value at any time within the history retention.
     *
     * @param <K> the table's key type
     * @param <V> the table's value type
     * @param store the versioned table's store name
     * @param keySerde the table's key serde
     * @param valueSerde the table's value serde
     * @return a read view of the table's versions
     * @throws IllegalArgumentException if the topology has no versioned table {@code store}
     */
    public <K, V> VersionedKeyValueStore<K, V> versionedTable(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        String history = TableVersions.historyStoreOf(store);
        if (!topology.stores().containsKey(store) || !topology.stores().containsKey(history)) {
            throw new IllegalArgumentException("No versioned table named '" + store + "'; the topology's stores are "
                    + topology.stores().keySet());
        }
        TableRowCodec<V> codec = new TableRowCodec<>(store, valueSerde);
        return new VersionedKeyValueStore<>() {
            @Override
            public @Nullable V get(K key) {
                return get(key, Long.MAX_VALUE);
            }

            @Override
            public @Nullable V get(K key, long asOf) {
                byte[] keyBytes = keySerde.serializer().serialize(store, key);
                for (StreamTask task : tasks.values()) {
                    if (task.stores().names().contains(store)) {
                        byte[] row = TableVersions.at(
                                task.stores().cache(store), task.stores().cache(history), keyBytes, asOf);
                        if (row != null) {
                            return codec.decode(row).value();
                        }
                    }
                }
                return null;
            }
        };
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("This TestDriver is closed");
        }
    }

    /**
     * Closes every task and forgets it, writing each task's committed event times to its directory when
     * {@code keepTimes}; returns the first failure, if any, after trying them all.
     */
    private @Nullable RuntimeException closeTasks(boolean keepTimes) {
        RuntimeException failure = null;
        for (StreamTask task : tasks.values()) {
            try {
                task.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (keepTimes) {
            for (CommittedTimes times : committedTimes.values()) {
                try {
                    times.write();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        tasks.clear();
        committedTimes.clear();
        return failure;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // A state directory the driver owns is deleted now: nothing will read the times.
        RuntimeException failure = closeTasks(!ownsStateDir);
        for (GlobalStore<?, ?> store : globals.values()) {
            try {
                store.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (ownsStateDir) {
            TempDirs.deleteRecursively(stateDir);
        }
        if (failure != null) {
            throw failure;
        }
    }
}
