package io.weir.streams.internals.task;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.metrics.Timer;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.WatermarkRecords;
import io.weir.streams.internals.topology.NodeSpec;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One sub-topology running on one partition number: reads that partition of each of its source
 * topics, keeps its own stores, and tracks its own watermark. The same class runs in the TestDriver
 * and in the Kafka runtime; they differ only in the {@link RecordCollector} and in who calls
 * {@link #prepareCommit} and {@link #completeCommit} when.
 *
 * <p>Per record: read it (deserialize, event time, error handling), note its partition as active,
 * run it through the graph judged against the current watermark, then advance the watermark from
 * the record's event time and let every processor, in topological order, react to the new watermark.
 *
 * <p>Each processor runs in a {@link TaskNode}, its context, which reads the task's clock, watermark and
 * commit request as they change; the task walks the nodes in topological order for records, the clock and
 * the commit. What stands alone is apart: reading ({@link SourceReader}), the watermark ({@link
 * WatermarkTracker}), failures ({@link ProcessingFailures}) and the stores ({@link TaskStores}).
 *
 * <p>Single-threaded. Owns its stores and processors: {@link #close()} closes both.
 */
public final class StreamTask implements AutoCloseable {

    private final TaskId id;
    private final String applicationId;
    private final TaskStores stores;
    private final RecordCollector collector;
    private final TaskMetrics metrics;
    private final Timer processTimer;
    private final WatermarkTracker tracker = new WatermarkTracker();
    /** Per topic (as named in Kafka), its reads: usually one; more when the topology reads it twice. */
    private final Map<String, List<SourceReader<?, ?>>> readers = new HashMap<>();
    /** For each repartition topic this task reads (as named in Kafka), how many tasks write it. */
    private final Map<String, Integer> upstreamWriters = new HashMap<>();
    /** This task's partition of each source, by the source's node name. */
    private final Map<String, TopicPartition> sourcePartitions = new HashMap<>();

    private final Map<String, TaskNode> nodesByName = new HashMap<>();
    private final Map<String, List<TaskNode>> sourceChildren = new HashMap<>();
    private final List<TaskNode> topological = new ArrayList<>();
    /** The nodes whose processors may hold records back ({@link Processor#holdsWatermark()}); usually none. */
    private final List<TaskNode> holders = new ArrayList<>();
    // processingTime and watermark are volatile: the watermark-lag gauge reads them from other threads.
    private volatile long processingTime;
    private boolean commitRequested;
    /** Wakes the thread that runs this task: see {@link ProcessorContext#wakeup()}. */
    private volatile Runnable wakeup = () -> {};
    /** Whether an error handler skipped or dead-lettered something derived from the record in process. */
    private boolean inputRefused;

    private volatile long watermark = Long.MIN_VALUE;

    /**
     * @param upstreamTasks for each repartition topic this task reads (by its name in Kafka), how many
     *                      upstream tasks write it
     * @param committedTime the event time committed with each input partition's offset by an earlier
     *                      owner of this task ({@link #committedTime()}), so lateness is judged as before;
     *                      empty for a new task
     * @param maxFutureSkewMs the maximum future skew of sources whose watermark strategy sets none ({@code
     *                      max.future.skew.ms}; -1: none)
     */
    public StreamTask(
            TaskId id,
            String applicationId,
            SubtopologySpec spec,
            TaskStores stores,
            RecordCollector collector,
            TaskMetrics metrics,
            long processingTime,
            Map<String, Integer> upstreamTasks,
            Map<TopicPartition, String> committedTime,
            long maxFutureSkewMs) {
        this.id = id;
        this.applicationId = applicationId;
        this.stores = stores;
        this.collector = collector;
        this.metrics = metrics;
        this.processingTime = processingTime;
        for (SourceSpec source : spec.sources()) {
            String topic = source.topic(applicationId);
            readers.computeIfAbsent(topic, t -> new ArrayList<>())
                    .add(new SourceReader<>(source, metrics, collector, maxFutureSkewMs));
            TopicPartition tp = new TopicPartition(topic, id.partition());
            sourcePartitions.put(source.nodeName(), tp);
            if (source.repartition()) {
                Integer writers = upstreamTasks.get(topic);
                if (writers == null) {
                    throw new IllegalArgumentException("Task " + id + " needs the number of tasks writing " + topic);
                }
                upstreamWriters.put(topic, writers);
                tracker.addUpstream(tp, writers, !source.table());
            } else {
                tracker.add(tp, source.consumed().watermarkStrategy(), processingTime, source.table());
            }
        }
        for (NodeSpec n : spec.nodes()) {
            TaskNode node = new TaskNode(
                    this,
                    n.name(),
                    n.processor().get(),
                    new ProcessingFailures(n.name(), spec.processingErrors(), collector, metrics, this::refuseInput),
                    new ProcessingFailures(n.name(), spec.processingErrors(), collector, metrics, () -> {}));
            nodesByName.put(n.name(), node);
            topological.add(node);
            for (String parent : n.parents()) {
                TaskNode p = nodesByName.get(parent);
                if (p != null) {
                    p.children.add(node);
                    node.parents.add(p);
                } else {
                    node.readsSource = true;
                    sourceChildren
                            .computeIfAbsent(parent, k -> new ArrayList<>())
                            .add(node);
                }
            }
        }
        committedTime.forEach(tracker::restore);
        watermark = tracker.advance();
        metrics.taskGauge(WeirMetrics.WATERMARK_LAG_MS, this::watermarkLag);
        metrics.taskGauge(WeirMetrics.WATERMARK, () -> {
            long w = watermark;
            return w == Long.MIN_VALUE ? -1 : w;
        });
        processTimer = metrics.taskTimer(WeirMetrics.PROCESS);
        stores.names().forEach(n -> stores.cache(n).reportTo(n, metrics));
        for (TaskNode node : topological) {
            node.holds = node.processor.holdsWatermark();
            if (node.holds) {
                holders.add(node);
            }
            // Below a node that holds records, a node starts from -infinity: the first delivery gives it the
            // task's watermark kept under the holds, which are known only once the holders have started.
            node.delivered = watermark;
            for (TaskNode p : node.parents) {
                if (p.holds || p.delivered == Long.MIN_VALUE) {
                    node.delivered = Long.MIN_VALUE;
                }
            }
        }
        for (TaskNode node : topological) {
            node.processor.init(node);
        }
    }

    public TaskId id() {
        return id;
    }

    /**
     * Processes one input record at processing time {@code now} (which first advances the clock).
     *
     * @throws RuntimeException what an operator threw and did not handle: a {@code ProcessingError}, a
     *     {@code RecordError} or {@code ProductionError} its handler decided to fail on, or a runtime failure
     */
    public void process(RawRecord raw, long now) {
        try {
            processRecord(raw, now);
        } catch (ForwardedFailure f) {
            throw f.failure();
        }
    }

    private void processRecord(RawRecord raw, long now) {
        advanceClock(now);
        List<SourceReader<?, ?>> reads = readers.get(raw.topic());
        if (reads == null) {
            throw new IllegalArgumentException("Task " + id + " does not read topic '" + raw.topic() + "'");
        }
        TopicPartition tp = new TopicPartition(raw.topic(), raw.partition());
        Integer writers = upstreamWriters.get(raw.topic());
        if (writers != null && WatermarkRecords.isMark(raw.headers())) {
            // Marks are honoured on repartition topics only, which one source reads.
            WatermarkRecords.Mark mark = reads.get(0).readMark(raw, writers);
            if (mark != null) {
                tracker.upstream(tp, mark.writer(), mark.watermark(), mark.idle());
                propagate(tracker.advance());
            }
            return;
        }
        tracker.markActive(tp, processingTime);
        for (SourceReader<?, ?> reader : reads) {
            Record<?, ?> record = reader.read(raw, processingTime);
            if (record == null) {
                continue;
            }
            inputRefused = false;
            for (TaskNode child : sourceChildren.getOrDefault(reader.nodeName(), List.of())) {
                child.process(record);
            }
            // A record an error handler skipped or dead-lettered anywhere in the graph, or one beyond the
            // future skew, is not trusted: its event time may be what made it fail (an overflow), and one
            // such record moving the watermark would make every later record late.
            if (!inputRefused && !reader.untimed(record, processingTime)) {
                tracker.observe(tp, record.timestamp());
            }
        }
        propagate(tracker.advance());
    }

    void refuseInput() {
        inputRefused = true;
    }

    /**
     * Sets processing time to {@code now} before the task processed anything, for a clock that starts
     * with the first record (the TestDriver's): idleness counts from here, not from the creation time.
     */
    public void startClock(long now) {
        processingTime = now;
        tracker.startClock(now);
    }

    /**
     * Moves processing time forward (partitions whose idleness elapsed stop holding the watermark
     * back), and ends the batch of records processed before ({@link #endBatch}).
     */
    public void advanceProcessingTime(long now) {
        try {
            advanceClock(now);
            endBatchOfNodes();
        } catch (ForwardedFailure f) {
            throw f.failure();
        }
    }

    private void advanceClock(long now) {
        if (now <= processingTime) {
            if (!holders.isEmpty()) {
                deliverHeld();
            }
            return;
        }
        processingTime = now;
        tracker.onProcessingTime(now);
        propagate(tracker.advance());
        for (TaskNode node : topological) {
            node.onProcessingTime(now);
        }
    }

    /** The input is complete: the watermark jumps to +infinity and every window fires. */
    public void endOfInput() {
        try {
            propagate(tracker.endOfInput());
            endBatchOfNodes();
        } catch (ForwardedFailure f) {
            throw f.failure();
        }
    }

    private void propagate(long newWatermark) {
        if (!holders.isEmpty()) {
            watermark = Math.max(watermark, newWatermark);
            deliverHeld();
            return;
        }
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        for (TaskNode node : topological) {
            node.onWatermark(newWatermark);
        }
    }

    /**
     * With nodes that hold records back: each node's watermark is the task's, or less where an ancestor
     * holds a record (below that record's event time); a node whose watermark advanced is told, in
     * topological order. Called after each record and each advance of the clock, as a hold moves when held
     * records leave, not only when the task's watermark does.
     */
    private void deliverHeld() {
        for (TaskNode node : topological) {
            long in = node.readsSource || node.parents.isEmpty() ? watermark : Long.MAX_VALUE;
            boolean heldAbove = false;
            for (TaskNode p : node.parents) {
                in = Math.min(in, p.outWatermark);
                heldAbove |= p.holding;
            }
            long hold = node.holds ? node.processor.watermarkHold() : Long.MAX_VALUE;
            node.holding = heldAbove || hold != Long.MAX_VALUE;
            node.outWatermark = hold == Long.MAX_VALUE ? in : Math.min(in, TimeMath.minus(hold, 1));
            if (in > node.delivered) {
                node.delivered = in;
                node.onWatermark(in);
            }
        }
    }

    /**
     * Whether the task can take another input record now: false while a processor that holds records
     * back holds as many as it may ({@link Processor#acceptsInput()}); its results leave as processing
     * time advances and batches end.
     */
    public boolean acceptsInput() {
        for (TaskNode node : holders) {
            if (!node.processor.acceptsInput()) {
                return false;
            }
        }
        return true;
    }

    /** Whether a processor holds records back that it has yet to emit. */
    public boolean holdsRecords() {
        for (TaskNode node : holders) {
            if (node.processor.watermarkHold() != Long.MAX_VALUE) {
                return true;
            }
        }
        return false;
    }

    /** Whether the write-back caches are full, so the task should commit before its interval ends. */
    public boolean needsCommit() {
        return stores.overBudget();
    }

    /** Gives what wakes the thread that runs this task when an asynchronous operator's answer comes in. */
    public void wakeUpWith(Runnable wakeup) {
        this.wakeup = wakeup;
    }

    /** Whether a processor asked for a commit since the last one ({@link ProcessorContext#requestCommit}). */
    public boolean commitRequested() {
        return commitRequested;
    }

    /** The batch of records given to {@link #process} since the last call is done: see {@link Processor#onBatchEnd()}. */
    public void endBatch() {
        try {
            endBatchOfNodes();
        } catch (ForwardedFailure f) {
            throw f.failure();
        }
    }

    private void endBatchOfNodes() {
        for (TaskNode node : topological) {
            node.onBatchEnd();
        }
        if (!holders.isEmpty()) {
            deliverHeld();
        }
    }

    /**
     * First phase of a commit (docs/architecture.md, "The commit"): the batch in progress ends ({@link
     * #endBatch}), operators emit what they held for the commit (tables' changes), then the caches' dirty entries go to the changelogs through the
     * collector. The caller then makes the commit durable (the runtime commits
     * its transaction) and calls {@link #completeCommit}.
     */
    public List<TaskStores.StoreFlush> prepareCommit() {
        commitRequested = false;
        endBatch();
        try {
            for (TaskNode node : topological) {
                node.beforeCommit();
            }
        } catch (ForwardedFailure f) {
            throw f.failure();
        }
        List<TaskStores.StoreFlush> flushes = stores.prepareCommit();
        for (TaskStores.StoreFlush flush : flushes) {
            StoreSpec spec = stores.spec(flush.store());
            if (!spec.ownChangelog()) {
                continue;
            }
            String topic = spec.changelogTopic(applicationId);
            for (var change : flush.flush().changes()) {
                collector.send(
                        topic, id.partition(), change.key(), change.value(), new RecordHeaders(), processingTime);
            }
        }
        return flushes;
    }

    /** Second phase: the stores receive the writes, each with its metadata (e.g. changelog offsets). */
    public void completeCommit(List<TaskStores.StoreFlush> flushes, Map<String, Map<String, byte[]>> metadata) {
        stores.completeCommit(flushes, metadata);
    }

    /**
     * The event time to commit with each input partition's offset: enough for a later owner to judge
     * lateness exactly as this one did (see {@link WatermarkTracker#committedTime}).
     */
    public Map<TopicPartition, String> committedTime() {
        return tracker.committedTime();
    }

    public long watermark() {
        return watermark;
    }

    private long watermarkLag() {
        long w = watermark;
        return w == Long.MIN_VALUE ? -1 : Math.max(0, TimeMath.minus(processingTime, w));
    }

    public long partitionWatermark(TopicPartition partition) {
        return tracker.partitionWatermark(partition);
    }

    public boolean isIdle(TopicPartition partition) {
        return tracker.isIdle(partition);
    }

    public long processingTime() {
        return processingTime;
    }

    public TaskStores stores() {
        return stores;
    }

    public TaskMetrics metrics() {
        return metrics;
    }

    /** Times the records this task processes; the stream thread records each batch. */
    public Timer processTimer() {
        return processTimer;
    }

    /** Whether a processor of this task holds records back: then each node has its own watermark. */
    boolean holdsAny() {
        return !holders.isEmpty();
    }

    /** Whether every input partition of this task is idle. */
    boolean inputsIdle() {
        return tracker.allIdle();
    }

    TopicPartition sourcePartition(String sourceNode) {
        TopicPartition tp = sourcePartitions.get(sourceNode);
        if (tp == null) {
            throw new IllegalArgumentException("Task " + id + " has no source '" + sourceNode + "'");
        }
        return tp;
    }

    String applicationId() {
        return applicationId;
    }

    RecordCollector collector() {
        return collector;
    }

    void requestCommit() {
        commitRequested = true;
    }

    /** Wakes the thread that runs this task; any thread. Read when run: the thread's signal comes after the start. */
    void wakeUp() {
        wakeup.run();
    }

    @Override
    public void close() {
        try {
            for (TaskNode node : topological) {
                node.processor.close();
            }
        } finally {
            metrics.unpublish();
            stores.close();
        }
    }
}
