package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;

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

    /** The mark in {@code headers}, or null for a data record. */
    public static @Nullable Mark read(Headers headers) {
        Header watermark = headers.lastHeader(WATERMARK);
        if (watermark == null) {
            return null;
        }
        return new Mark(
                ByteBuffer.wrap(headers.lastHeader(WRITER).value()).getInt(),
                ByteBuffer.wrap(watermark.value()).getLong(),
                headers.lastHeader(IDLE).value()[0] == 1);
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
