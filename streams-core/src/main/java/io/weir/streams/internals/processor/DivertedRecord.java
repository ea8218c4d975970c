package io.weir.streams.internals.processor;

import io.weir.streams.dsl.LateRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * An input record diverted to a side topic (late data, dead letters): its original key and value bytes
 * and headers as consumed, plus headers saying why, plus {@code weir.source.*} headers saying where it
 * was read (see {@link LateRecord} and {@code DeadLetterRecord}). Without a source (a record derived
 * from a window result) the key and value are null and there are no source headers.
 */
public final class DivertedRecord {

    private final @Nullable SourceInfo source;
    private final Headers headers = new RecordHeaders();

    /** @param source the input record, or null when there is none */
    public DivertedRecord(@Nullable SourceInfo source) {
        this.source = source;
        if (source != null) {
            for (Header h : source.rawHeaders()) {
                headers.add(h);
            }
        }
    }

    /** Adds a header, UTF-8 encoded. */
    public DivertedRecord header(String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /** Adds the source headers and sends the record to {@code topic} through {@code collector}. */
    public void sendTo(RecordCollector collector, String topic, long timestamp) {
        if (source != null) {
            header(LateRecord.SOURCE_TOPIC_HEADER, source.topic());
            header(LateRecord.SOURCE_PARTITION_HEADER, Integer.toString(source.partition()));
            header(LateRecord.SOURCE_OFFSET_HEADER, Long.toString(source.offset()));
            header(LateRecord.SOURCE_TIMESTAMP_HEADER, Long.toString(source.kafkaTimestamp()));
        }
        collector.send(
                topic,
                null,
                source == null ? null : source.rawKey(),
                source == null ? null : source.rawValue(),
                headers,
                timestamp);
    }
}
