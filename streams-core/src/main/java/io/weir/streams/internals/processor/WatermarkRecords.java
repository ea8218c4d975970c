package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Control records that carry event time across a repartition topic. An upstream task writes one to
 * every partition of the topic when its watermark advances or its inputs go idle or come back; the
 * record has no key and no value, and headers naming the writing task's partition, its watermark and
 * whether all its inputs are idle. Data records of future-skewed events carry a flag header so the
 * reading side refuses them as the writing side would have.
 */
public final class WatermarkRecords {

    static final String WATERMARK = "weir.wm";
    static final String WRITER = "weir.wm.writer";
    static final String IDLE = "weir.wm.idle";
    static final String FUTURE = "weir.future";
    private static final Set<String> CONTROL = Set.of(WATERMARK, WRITER, IDLE, FUTURE);

    private WatermarkRecords() {}

    /** A watermark record's content. */
    public record Mark(int writer, long watermark, boolean idle) {}

    static Headers headers(int writer, long watermark, boolean idle) {
        Headers headers = new RecordHeaders();
        headers.add(WATERMARK, ByteBuffer.allocate(8).putLong(watermark).array());
        headers.add(WRITER, ByteBuffer.allocate(4).putInt(writer).array());
        headers.add(IDLE, new byte[] {(byte) (idle ? 1 : 0)});
        return headers;
    }

    /** Whether a record of a repartition topic claims to be a mark; only {@link #read} tells if it is one. */
    public static boolean isMark(Headers headers) {
        return headers.lastHeader(WATERMARK) != null;
    }

    /**
     * The mark a record of a repartition topic written by {@code writers} tasks carries.
     *
     * @throws IllegalArgumentException naming what is wrong when the record is not a mark Weir wrote: it
     *     has a key or value, a header is missing or of the wrong size, or the writer is out of range
     */
    public static Mark read(byte @Nullable [] key, byte @Nullable [] value, Headers headers, int writers) {
        if (key != null || value != null) {
            throw new IllegalArgumentException("a watermark mark has no key and no value");
        }
        byte[] watermark = header(headers, WATERMARK, 8);
        byte[] writer = header(headers, WRITER, 4);
        byte[] idle = header(headers, IDLE, 1);
        int w = ByteBuffer.wrap(writer).getInt();
        if (w < 0 || w >= writers) {
            throw new IllegalArgumentException(
                    "the mark names writer " + w + ", but " + writers + " tasks write this topic");
        }
        if (idle[0] != 0 && idle[0] != 1) {
            throw new IllegalArgumentException("header " + IDLE + " is neither 0 nor 1");
        }
        return new Mark(w, ByteBuffer.wrap(watermark).getLong(), idle[0] == 1);
    }

    private static byte[] header(Headers headers, String name, int size) {
        Header h = headers.lastHeader(name);
        if (h == null || h.value() == null || h.value().length != size) {
            throw new IllegalArgumentException("header " + name + " is missing or not " + size + " bytes long");
        }
        return h.value();
    }

    /**
     * A copy of a data record's headers without Weir's control headers: a record read from a user topic
     * may carry any header, and one named like a mark or a flag must not become one on a repartition topic.
     */
    static Headers dataHeaders(Headers headers) {
        Headers copy = new RecordHeaders();
        for (Header h : headers) {
            if (!CONTROL.contains(h.key())) {
                copy.add(h);
            }
        }
        return copy;
    }

    /** Whether a repartitioned data record was future-skewed where it was first read; removes the flag. */
    public static boolean takeFutureFlag(Headers headers) {
        if (headers.lastHeader(FUTURE) == null) {
            return false;
        }
        headers.remove(FUTURE);
        return true;
    }

    static void flagFuture(Headers headers) {
        headers.add(FUTURE, new byte[] {1});
    }
}
