package io.weir.streams.test.reference;

import io.weir.streams.dsl.LateRecord;
import io.weir.streams.time.Window;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A record on the late-data side output: the input record (key, value, where it was read), why it
 * was refused, every window that refused it, ordered by start (none for FUTURE_TIMESTAMP), the
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
        List<Window> windows,
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
                + (windows.isEmpty()
                        ? ""
                        : " window "
                                + windows.stream()
                                        .map(w -> "[" + w.start() + "," + w.end() + ")")
                                        .collect(Collectors.joining(" ")))
                + " W=" + watermark + " t=" + eventTime + " ts=" + timestamp;
    }
}
