package io.weir.streams.internals.processor;

import io.weir.streams.dsl.LateRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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

    /**
     * Adds the source headers and sends the record to {@code topic} through {@code collector}, made to fit
     * what the topic accepts: a timestamp it would refuse is replaced by the nearest one it accepts (the
     * old one in {@link LateRecord#RESTAMPED_HEADER}); a record too large has its value, then its key, cut
     * ({@link LateRecord#TRUNCATED_HEADER}). A side topic must never turn a decision into a failure.
     *
     * @return false when the record cannot fit even with no key and value left (its headers alone are too
     *     large): nothing was sent, and the caller counts it
     */
    public boolean sendTo(RecordCollector collector, String topic, long timestamp) {
        if (source != null) {
            header(LateRecord.SOURCE_TOPIC_HEADER, source.topic());
            header(LateRecord.SOURCE_PARTITION_HEADER, Integer.toString(source.partition()));
            header(LateRecord.SOURCE_OFFSET_HEADER, Long.toString(source.offset()));
            header(LateRecord.SOURCE_TIMESTAMP_HEADER, Long.toString(source.kafkaTimestamp()));
        }
        TopicLimits limits = collector.limits(topic);
        long now = collector.now();
        if (!limits.acceptsTimestamp(timestamp, now)) {
            header(LateRecord.RESTAMPED_HEADER, Long.toString(timestamp));
            timestamp = limits.nearestAccepted(timestamp, now);
        }
        byte[] key = source == null ? null : source.rawKey();
        byte[] value = source == null ? null : source.rawValue();
        if (limits.tooLarge(key, value, headers)) {
            header(LateRecord.TRUNCATED_HEADER, "key=" + length(key) + ";value=" + length(value));
            long room = limits.maxRecordBytes() - RecordSize.batchUpperBound(null, null, headers);
            if (room < 0) {
                return false;
            }
            int keyRoom = (int) Math.min(length(key) < 0 ? 0 : length(key), room);
            key = cut(key, keyRoom);
            value = cut(value, (int) Math.min(Integer.MAX_VALUE, room - keyRoom));
        }
        collector.send(topic, null, key, value, headers, timestamp);
        return true;
    }

    private static int length(byte @Nullable [] bytes) {
        return bytes == null ? -1 : bytes.length;
    }

    private static byte @Nullable [] cut(byte @Nullable [] bytes, int room) {
        return bytes == null || bytes.length <= room ? bytes : Arrays.copyOf(bytes, room);
    }
}
