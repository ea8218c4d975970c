package io.weir.streams.internals.window;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Window;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * Refuses records for a windowed operator: counts each refusal and, when the operator has a
 * late-data topic, writes the input record's original bytes there with headers saying why (see
 * {@link LateRecord}). A record derived from another operator's window result has no original bytes
 * and is written with a null key and value.
 */
final class LateDataOutput {

    private final String topic;
    private final ProcessorContext context;
    private final TaskMetrics.Counter lateDropped;
    private final TaskMetrics.Counter futureDropped;
    private final TaskMetrics.Counter written;

    LateDataOutput(String topic, ProcessorContext context) {
        this.topic = topic;
        this.context = context;
        TaskMetrics metrics = context.metrics();
        this.lateDropped = metrics.counter(context.nodeName(), WeirMetrics.LATE_RECORDS_DROPPED);
        this.futureDropped = metrics.counter(context.nodeName(), WeirMetrics.FUTURE_RECORDS_DROPPED);
        this.written = metrics.counter(context.nodeName(), WeirMetrics.SIDE_OUTPUT_RECORDS);
    }

    /** The record came too late for {@code window}: past its end plus the allowed lateness. */
    void late(Record<?, ?> record, Window window, long watermark) {
        lateDropped.increment();
        write(record, LateRecord.Reason.LATE, window, watermark);
    }

    /** The record's event time is beyond the maximum future skew. */
    void future(Record<?, ?> record, long watermark) {
        futureDropped.increment();
        write(record, LateRecord.Reason.FUTURE_TIMESTAMP, null, watermark);
    }

    private void write(Record<?, ?> record, LateRecord.Reason reason, Window window, long watermark) {
        if (topic == null) {
            return;
        }
        SourceInfo source = record.source();
        Headers headers = new RecordHeaders();
        if (source != null) {
            for (Header h : source.rawHeaders()) {
                headers.add(h);
            }
        }
        add(headers, LateRecord.REASON_HEADER, reason.name());
        if (window != null) {
            add(headers, LateRecord.WINDOW_START_HEADER, Long.toString(window.start()));
            add(headers, LateRecord.WINDOW_END_HEADER, Long.toString(window.end()));
        }
        add(headers, LateRecord.WATERMARK_HEADER, Long.toString(watermark));
        add(headers, LateRecord.EVENT_TIME_HEADER, Long.toString(record.timestamp()));
        if (source != null) {
            add(headers, LateRecord.SOURCE_TOPIC_HEADER, source.topic());
            add(headers, LateRecord.SOURCE_PARTITION_HEADER, Integer.toString(source.partition()));
            add(headers, LateRecord.SOURCE_OFFSET_HEADER, Long.toString(source.offset()));
        }
        context.collector().send(topic, null, source == null ? null : source.rawKey(),
                source == null ? null : source.rawValue(), headers, record.timestamp());
        written.increment();
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
