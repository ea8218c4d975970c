package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Window;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.DivertedRecord;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.jspecify.annotations.Nullable;

/**
 * Refuses records for an event-time operator: counts each refusal and, when the operator has a
 * late-data topic, writes the input record's original bytes there with headers saying why (see
 * {@link LateRecord} and {@link DivertedRecord}).
 */
public final class LateDataOutput {

    private final @Nullable String topic;
    private final ProcessorContext context;
    private final TaskMetrics.Counter lateDropped;
    private final TaskMetrics.Counter futureDropped;
    private final TaskMetrics.Counter written;

    /** @param topic the late-data topic, or null to count refusals only */
    public LateDataOutput(@Nullable String topic, ProcessorContext context) {
        this.topic = topic;
        this.context = context;
        TaskMetrics metrics = context.metrics();
        this.lateDropped = metrics.counter(context.nodeName(), WeirMetrics.LATE_RECORDS_DROPPED);
        this.futureDropped = metrics.counter(context.nodeName(), WeirMetrics.FUTURE_RECORDS_DROPPED);
        this.written = metrics.counter(context.nodeName(), WeirMetrics.SIDE_OUTPUT_RECORDS);
    }

    /** The record came too late for {@code window}: past its end plus the allowed lateness. */
    public void late(Record<?, ?> record, Window window, long watermark) {
        lateDropped.increment();
        write(record, LateRecord.Reason.LATE, window, watermark);
    }

    /** The record's event time is beyond the maximum future skew. */
    public void future(Record<?, ?> record, long watermark) {
        futureDropped.increment();
        write(record, LateRecord.Reason.FUTURE_TIMESTAMP, null, watermark);
    }

    private void write(Record<?, ?> record, LateRecord.Reason reason, @Nullable Window window, long watermark) {
        if (topic == null) {
            return;
        }
        DivertedRecord out = new DivertedRecord(record.source()).header(LateRecord.REASON_HEADER, reason.name());
        if (window != null) {
            out.header(LateRecord.WINDOW_START_HEADER, Long.toString(window.start()))
                    .header(LateRecord.WINDOW_END_HEADER, Long.toString(window.end()));
        }
        out.header(LateRecord.WATERMARK_HEADER, Long.toString(watermark))
                .header(LateRecord.EVENT_TIME_HEADER, Long.toString(record.timestamp()))
                .sendTo(context.collector(), topic, record.timestamp());
        written.increment();
    }
}
