package io.weir.streams.internals.task;

import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ErrorOutcome;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.SourceInfo;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * A processor in a {@link StreamTask}'s graph, and its context: what it reads of the task (clock, watermark,
 * inputs' idleness, stores) it reads from the task as it is now. Each call into the processor hands what it
 * throws to the node's {@link ProcessingFailures}; what a child threw is passed up as a {@link
 * ForwardedFailure}, decided already.
 */
final class TaskNode implements ProcessorContext {
    private final StreamTask task;
    final String name;

    @SuppressWarnings("rawtypes")
    final Processor processor;

    final ProcessingFailures failures;
    /** For failures a processor reports after the record's processing ended: they refuse no input. */
    final ProcessingFailures laterFailures;

    final List<TaskNode> children = new ArrayList<>();
    final List<TaskNode> parents = new ArrayList<>();
    /** Whether its processor holds records back: asked once, as {@link Processor#holdsWatermark()} promises. */
    boolean holds;
    /** Whether a source of the task is among its parents. */
    boolean readsSource;
    /** With holders: the watermark this node was last told, and what it passes on (below its hold). */
    long delivered = Long.MIN_VALUE;

    long outWatermark = Long.MIN_VALUE;
    /** With holders: whether this node or one upstream of it holds a record back. */
    boolean holding;

    TaskNode(
            StreamTask task,
            String name,
            Processor<?, ?> processor,
            ProcessingFailures failures,
            ProcessingFailures laterFailures) {
        this.task = task;
        this.name = name;
        this.processor = processor;
        this.failures = failures;
        this.laterFailures = laterFailures;
    }

    @SuppressWarnings("unchecked")
    void process(Record<?, ?> record) {
        try {
            processor.process(record);
        } catch (RuntimeException e) {
            failures.failed(e, record.source(), record.timestamp());
        }
    }

    void onWatermark(long newWatermark) {
        try {
            processor.onWatermark(newWatermark);
        } catch (RuntimeException e) {
            failures.failed(e, null, task.processingTime());
        }
    }

    void onBatchEnd() {
        try {
            processor.onBatchEnd();
        } catch (RuntimeException e) {
            failures.failed(e, null, task.processingTime());
        }
    }

    void beforeCommit() {
        try {
            processor.beforeCommit();
        } catch (RuntimeException e) {
            failures.failed(e, null, task.processingTime());
        }
    }

    void onProcessingTime(long now) {
        try {
            processor.onProcessingTime(now);
        } catch (RuntimeException e) {
            failures.failed(e, null, now);
        }
    }

    @Override
    public <K, V> void forward(Record<K, V> record) {
        for (TaskNode child : children) {
            try {
                child.process(record);
            } catch (RuntimeException e) {
                throw ForwardedFailure.of(e);
            }
        }
    }

    @Override
    public long watermark() {
        return task.holdsAny() ? delivered : task.watermark();
    }

    @Override
    public long processingTime() {
        return task.processingTime();
    }

    @Override
    public boolean inputIdle() {
        // Records held upstream will still come, whatever the inputs do.
        return task.inputsIdle() && !heldUpstream();
    }

    private boolean heldUpstream() {
        for (TaskNode p : parents) {
            if (p.holding) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long sourceWatermark(String sourceNode) {
        return task.partitionWatermark(task.sourcePartition(sourceNode));
    }

    @Override
    public boolean sourceIdle(String sourceNode) {
        return task.isIdle(task.sourcePartition(sourceNode));
    }

    @Override
    public String applicationId() {
        return task.applicationId();
    }

    @Override
    public int partition() {
        return task.id().partition();
    }

    @Override
    public String nodeName() {
        return name;
    }

    @Override
    public TaskMetrics metrics() {
        return task.metrics();
    }

    @Override
    public TaskStores stores() {
        return task.stores();
    }

    @Override
    public RecordCollector collector() {
        return task.collector();
    }

    @Override
    public ErrorOutcome errorOutcome(String skippedMetric) {
        return new ErrorOutcome(name, task.collector(), task.metrics(), skippedMetric, task::refuseInput);
    }

    @Override
    public void failed(RuntimeException error, @Nullable SourceInfo source) {
        laterFailures.failed(error, source, task.processingTime());
    }

    @Override
    public void requestCommit() {
        task.requestCommit();
    }

    @Override
    public Runnable wakeup() {
        return task::wakeUp;
    }
}
