package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * How large a record is to Kafka's producer and broker: the size of a record batch (format v2) holding
 * it alone, uncompressed, every varint at its largest. An upper bound, as exact as the producer's own
 * {@code max.request.size} check; the runtime and the TestDriver refuse records by it alike.
 */
public final class RecordSize {

    /** A record batch's header (format v2). */
    private static final int BATCH_OVERHEAD = 61;
    /** Length, attributes, timestamp delta and offset delta of a record, at their largest varint sizes. */
    private static final int RECORD_OVERHEAD = 21;

    private static final int VARINT_MAX = 5;

    private RecordSize() {}

    public static long batchUpperBound(byte @Nullable [] key, byte @Nullable [] value, Headers headers) {
        long size = (long) BATCH_OVERHEAD
                + RECORD_OVERHEAD
                + VARINT_MAX
                + (key == null ? 0 : key.length)
                + VARINT_MAX
                + (value == null ? 0 : value.length)
                + VARINT_MAX;
        for (Header h : headers) {
            size += VARINT_MAX + Utils.utf8Length(h.key()) + VARINT_MAX + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }
}
