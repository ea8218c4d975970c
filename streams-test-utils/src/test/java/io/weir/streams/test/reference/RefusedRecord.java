package io.weir.streams.test.reference;

import io.weir.streams.dsl.LateRecord;

import java.util.Comparator;

/**
 * A record on the late-data side output: the input record (key, value, where it was read), why it
 * was refused, the window it was refused from ({@code null} bounds for FUTURE_TIMESTAMP), the
 * watermark it was judged against, its event time as the header says it and the side-output
 * record's timestamp.
 */
record RefusedRecord(
        String key,
        long value,
        String topic,
        int partition,
        long offset,
        LateRecord.Reason reason,
        Long windowStart,
        Long windowEnd,
        long watermark,
        long eventTime,
        long timestamp) {

    /** A canonical order for comparing multisets of refused records. */
    static final Comparator<RefusedRecord> ORDER = Comparator.comparing(RefusedRecord::topic)
            .thenComparingInt(RefusedRecord::partition)
            .thenComparingLong(RefusedRecord::offset)
            .thenComparing(RefusedRecord::toString);

    @Override
    public String toString() {
        return key + "=" + value + " from " + topic + "[" + partition + "]@" + offset + " " + reason
                + (windowStart == null ? "" : " window [" + windowStart + "," + windowEnd + ")")
                + " W=" + watermark + " t=" + eventTime + " ts=" + timestamp;
    }
}
