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

    /**
     * Whether this processor may hold records back and emit them later ({@link #watermarkHold()}); asked
     * once, before {@link #init}. The task then keeps a watermark per node.
     */
    default boolean holdsWatermark() {
        return false;
    }

    /**
     * The earliest event time among the records this processor holds and may still emit, or {@code
     * Long.MAX_VALUE} when it holds none: the watermark its descendants see stays below it, so a record it
     * emits later is never late for them because of the wait. Asked only if {@link #holdsWatermark()}.
     */
    default long watermarkHold() {
        return Long.MAX_VALUE;
    }

    /**
     * Whether this processor can take another input record now; asked, for processors that {@link
     * #holdsWatermark()}, before each input record of the task. When one cannot, the task takes no input
     * until it can (the runtime leaves the records for a later poll), which bounds what it holds.
     */
    default boolean acceptsInput() {
        return true;
    }

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
