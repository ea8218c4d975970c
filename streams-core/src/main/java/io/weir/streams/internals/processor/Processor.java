package io.weir.streams.internals.processor;

/**
 * One step of a topology, instantiated once per task and driven by that task's thread only.
 *
 * <p>Time: {@link #onWatermark(long)} is called after each advance of the task's watermark, in
 * topological order, so a processor has seen every record its upstream emitted for a watermark
 * before it learns of that watermark.
 */
public interface Processor<K, V> {

    default void init(ProcessorContext context) {}

    void process(Record<K, V> record);

    /** The watermark reached {@code watermark} (Long.MAX_VALUE at the end of a bounded input). */
    default void onWatermark(long watermark) {}

    /** Processing time reached {@code now} (after idleness was re-evaluated). */
    default void onProcessingTime(long now) {}

    /**
     * The task processed a batch of records: the records of one poll in the runtime, one piped record
     * (with what it caused downstream) in the TestDriver; also called before every commit. Work an
     * operator coalesces across the records of a batch (a repartition sink's watermark marks) is sent
     * here. Called in topological order.
     */
    default void onBatchEnd() {}

    /**
     * The task is about to commit: emit what is held for the commit (a table's last change per key).
     * Called in topological order, so what an operator emits here reaches operators that are called
     * after it, and before the stores flush, so it is part of the same commit.
     */
    default void beforeCommit() {}

    default void close() {}
}
