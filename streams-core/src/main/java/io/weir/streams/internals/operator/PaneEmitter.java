package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

/**
 * Sends an operator's results downstream as panes: each result carries its {@link PaneInfo} in
 * headers, and under {@link Refinement#ACCUMULATING_AND_RETRACTING} a pane that is not its result's
 * first comes after a retraction of the previous one. What the panes hold (full value or delta) is
 * the operator's choice, made with {@link #discards()} and {@link #retracts()}; how they travel is
 * decided here, once for every stateful operator.
 *
 * <p>Counts panes by timing and retractions ({@link Retractions}) under the operator's node, and asks the task to commit
 * soon after each pane, so readers waiting for results do not wait out the commit interval.
 * Single-threaded, like its task.
 */
public final class PaneEmitter<K, A> {

    private final Refinement refinement;
    private final ProcessorContext context;
    private final Counter panes;
    private final Counter earlyPanes;
    private final Counter onTimePanes;
    private final Counter latePanes;
    private final Retractions retractions;

    public PaneEmitter(Refinement refinement, ProcessorContext context) {
        this.refinement = refinement;
        this.context = context;
        TaskMetrics metrics = context.metrics();
        String node = context.nodeName();
        panes = metrics.counter(node, WeirMetrics.PANES_EMITTED);
        earlyPanes = metrics.counter(node, WeirMetrics.EARLY_PANES);
        onTimePanes = metrics.counter(node, WeirMetrics.ON_TIME_PANES);
        latePanes = metrics.counter(node, WeirMetrics.LATE_PANES);
        retractions = new Retractions(context);
    }

    /** Whether a pane holds only what arrived since the previous one: the state restarts after each pane. */
    public boolean discards() {
        return refinement == Refinement.DISCARDING;
    }

    /** Whether the state must remember each pane's value, to retract it before the next. */
    public boolean retracts() {
        return refinement == Refinement.ACCUMULATING_AND_RETRACTING;
    }

    /**
     * Emits {@code value} as {@code pane}, stamped {@code timestamp}; when retracting and the pane is
     * not the first ({@code pane.index() > 0}), first a retraction of {@code previous}, the value of
     * the pane before.
     */
    public void emit(K key, @Nullable A previous, @Nullable A value, long timestamp, PaneInfo pane) {
        if (retracts() && pane.index() > 0) {
            forward(key, previous, timestamp, pane.asRetraction());
        }
        forward(key, value, timestamp, pane);
        panes.increment();
        (switch (pane.timing()) {
                    case EARLY -> earlyPanes;
                    case ON_TIME -> onTimePanes;
                    case LATE -> latePanes;
                })
                .increment();
        context.requestCommit();
    }

    /** Emits only a retraction of {@code previous}: a result that ends without a replacement (a merged-away session). */
    public void retract(K key, @Nullable A previous, long timestamp, PaneInfo retraction) {
        forward(key, previous, timestamp, retraction);
    }

    // A pane's value is of the stream's value type, which may hold null (a reduce's empty aggregate, a value a
    // serde wrote as null); NullAway's checks cannot say that a type argument is nullable, so they are off here.
    @SuppressWarnings("NullAway")
    private void forward(K key, @Nullable A value, long timestamp, PaneInfo pane) {
        Record<K, A> record = new Record<>(key, value, timestamp, pane.writeTo(new RecordHeaders()), null);
        if (pane.isRetraction()) {
            retractions.forwardMarked(record);
        } else {
            context.forward(record);
        }
    }
}
