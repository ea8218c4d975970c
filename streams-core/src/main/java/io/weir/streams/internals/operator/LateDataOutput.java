package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.DivertedRecord;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.time.Window;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Refuses records for an event-time operator: counts each refusal and, when the operator has a
 * late-data topic, writes the input record's original bytes there once, with headers saying why and
 * naming every window that refused it (see {@link LateRecord} and {@link DivertedRecord}); without a
 * topic, a record that nothing kept is logged at WARN, rate-limited ({@link DropWarning}).
 */
public final class LateDataOutput {

    private final @Nullable String topic;
    private final ProcessorContext context;
    private final Counter lateDropped;
    private final Counter futureDropped;
    private final Counter written;
    private final Counter writeFailures;
    private final DropWarning oversizedWarning;
    private final DropWarning lateWarning;
    private final DropWarning futureWarning;

    /** @param topic the late-data topic, or null to count refusals only */
    public LateDataOutput(@Nullable String topic, ProcessorContext context) {
        this.topic = topic;
        this.context = context;
        TaskMetrics metrics = context.metrics();
        this.lateDropped = metrics.counter(context.nodeName(), WeirMetrics.LATE_RECORDS_DROPPED);
        this.futureDropped = metrics.counter(context.nodeName(), WeirMetrics.FUTURE_RECORDS_DROPPED);
        this.written = metrics.counter(context.nodeName(), WeirMetrics.SIDE_OUTPUT_RECORDS);
        this.writeFailures = metrics.counter(context.nodeName(), WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED);
        this.oversizedWarning = new DropWarning(
                context.nodeName(),
                "side-output records whose headers alone exceed the late-data topic's size limit",
                "Raise the topic's max.message.bytes; counted as " + WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED + ".");
        this.lateWarning = new DropWarning(
                context.nodeName(),
                "late records (every window of theirs was past its allowed lateness)",
                "Keep them with lateRecordsTo(topic) or take them with withAllowedLateness; counted as "
                        + WeirMetrics.LATE_RECORDS_DROPPED + ".");
        this.futureWarning = new DropWarning(
                context.nodeName(),
                "records beyond the maximum future skew",
                "Check the producers' clocks or the skew limit; counted as " + WeirMetrics.FUTURE_RECORDS_DROPPED
                        + ".");
    }

    /**
     * Windows of the record were past their allowed lateness: each counts as a drop; the record goes to
     * the late-data topic once, naming them all, unless another of its windows took it.
     *
     * @param refused the windows that refused the record; not empty
     * @param taken   whether another window of the record took it
     */
    public void late(Record<?, ?> record, List<Window> refused, boolean taken, long watermark) {
        lateDropped.increment(refused.size());
        if (taken) {
            return;
        }
        if (topic == null) {
            lateWarning.dropped(record, watermark);
            return;
        }
        List<Window> ordered = new ArrayList<>(refused);
        ordered.sort(Comparator.comparingLong(Window::start).thenComparingLong(Window::end));
        write(record, LateRecord.Reason.LATE, ordered, watermark);
    }

    /**
     * The record was to be joined as of its event time with a versioned table whose history, judged by
     * the table's watermark {@code tableWatermark}, may no longer reach back to it: counted as late.
     */
    public void beforeTableHistory(Record<?, ?> record, long tableWatermark) {
        lateDropped.increment();
        if (topic == null) {
            lateWarning.dropped(record, tableWatermark);
            return;
        }
        write(record, LateRecord.Reason.BEFORE_TABLE_HISTORY, List.of(), tableWatermark);
    }

    /** The record's event time is beyond the maximum future skew. */
    public void future(Record<?, ?> record, long watermark) {
        futureDropped.increment();
        if (topic == null) {
            futureWarning.dropped(record, watermark);
            return;
        }
        write(record, LateRecord.Reason.FUTURE_TIMESTAMP, List.of(), watermark);
    }

    private void write(Record<?, ?> record, LateRecord.Reason reason, List<Window> windows, long watermark) {
        if (topic == null) {
            return;
        }
        DivertedRecord out = new DivertedRecord(record.source()).header(LateRecord.REASON_HEADER, reason.name());
        for (Window window : windows) {
            out.header(LateRecord.WINDOW_START_HEADER, Long.toString(window.start()))
                    .header(LateRecord.WINDOW_END_HEADER, Long.toString(window.end()));
        }
        out.header(LateRecord.WATERMARK_HEADER, Long.toString(watermark))
                .header(LateRecord.EVENT_TIME_HEADER, Long.toString(record.timestamp()));
        if (out.sendTo(context.collector(), topic, record.timestamp())) {
            written.increment();
        } else {
            writeFailures.increment();
            oversizedWarning.dropped(record, watermark);
        }
    }
}
