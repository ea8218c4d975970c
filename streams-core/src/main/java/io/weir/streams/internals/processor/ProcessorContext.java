package io.weir.streams.internals.processor;

import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.state.Stores;
import org.jspecify.annotations.Nullable;

/** What a processor may use of its task. One context per processor node; single-threaded. */
public interface ProcessorContext {

    /** Sends a record to every child of this processor, depth first. */
    <K, V> void forward(Record<K, V> record);

    /** The task's watermark as this processor knows it (Long.MIN_VALUE before the first advance). */
    long watermark();

    /** The task's processing time (wall clock in the runtime, virtual time in the TestDriver). */
    long processingTime();

    /** Whether every input partition of the task is idle. */
    boolean inputIdle();

    /**
     * The watermark of this task's partition of the source {@code sourceNode} alone (Long.MIN_VALUE before
     * its first record): what an operator waiting on one input (the aligned stream–table join waits on its
     * table) reads, since the task's watermark leaves tables out.
     *
     * @throws IllegalArgumentException if the task has no such source
     */
    long sourceWatermark(String sourceNode);

    /** Whether this task's partition of the source {@code sourceNode} is idle. */
    boolean sourceIdle(String sourceNode);

    /** The application id (prefix of internal topic names). */
    String applicationId();

    /** The partition number of this task. */
    int partition();

    /** The name of this processor node (metrics are reported under it). */
    String nodeName();

    TaskMetrics metrics();

    /** The task's stores and the instance's global tables. */
    Stores stores();

    /** For side outputs: records written straight to a topic, outside the processor graph. */
    RecordCollector collector();

    /**
     * Carries out error handlers' decisions for this node, counting skips as {@code skippedMetric}. A
     * record it skips or dead-letters keeps the input record it derives from out of the task's watermark.
     */
    ErrorOutcome errorOutcome(String skippedMetric);

    /**
     * Hands {@code error}, which this processor's user code caused after the processing of the input record
     * it derives from had ended (an asynchronous call that finally failed, or what the user's code did with
     * its answer), to the topology's processing-error handler, as if processing that record had thrown it:
     * fail, skip and count, or dead-letter. Errors of the runtime and errors forwarded from downstream pass
     * through, rethrown.
     *
     * @param source the input record the failure derives from, or null for a timer
     * @throws RuntimeException the error when the handler decides to fail, or when it is not user code's
     */
    void failed(RuntimeException error, @Nullable SourceInfo source);

    /**
     * Asks for the task's results to be committed soon: a processor that has just emitted results
     * a reader waits for (a window's pane) calls it. The runtime then commits at the end of
     * the current batch if its thread has caught up with its input (no partition of a running task
     * lags behind the end the consumer last saw), instead of at the next {@code commit.interval.ms};
     * while a thread works through a backlog the interval alone decides, so a backlog's many window
     * closes do not turn into many commits. The TestDriver commits on its own virtual-time schedule
     * and ignores the request.
     */
    void requestCommit();

    /**
     * What wakes the task's thread when work this processor started on other threads has finished (an
     * asynchronous call's answer came in), so that the thread takes it in without waiting for its next round.
     * Thread-safe: run it from the completing thread. Does nothing where nothing waits (the TestDriver).
     */
    default Runnable wakeup() {
        return () -> {};
    }
}
