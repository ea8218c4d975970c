package io.weir.streams.internals.processor;

import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The control headers on repartition topics, byte for byte: a watermark mark (a record without key and value,
 * headers {@code weir.wm} 8 bytes, {@code weir.wm.writer} 4, {@code weir.wm.idle} 1) and the future-skew flag
 * of a data record ({@code weir.future}, 1). Each fixture record is one header: its name in UTF-8, then its
 * value. Upstream and downstream tasks may run different releases during a rolling upgrade.
 */
class WatermarkRecordsGoldenTest {

    private record Mark(String what, int writer, long watermark, boolean idle) {}

    private static final List<Mark> MARKS = List.of(
            new Mark("writer 0 at watermark 1700000000000, active", 0, 1_700_000_000_000L, false),
            new Mark("writer 3 at watermark -1 (negative), idle", 3, -1, true),
            new Mark("writer 1 at the end of input (Long.MAX_VALUE), active", 1, Long.MAX_VALUE, false));

    @Test
    void marksAreWrittenAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("watermark-marks");
        for (Mark m : MARKS) {
            for (Header h : WatermarkRecords.headers(m.writer(), m.watermark(), m.idle())) {
                golden.add(m.what() + ": header " + h.key(), utf8(h.key()), h.value());
            }
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < MARKS.size(); i++) {
            Headers headers = new RecordHeaders();
            for (GoldenBytes.Entry header : stored.subList(3 * i, 3 * i + 3)) {
                headers.add(new String(header.field(0), StandardCharsets.UTF_8), header.field(1));
            }
            Mark m = MARKS.get(i);
            assertTrue(WatermarkRecords.isMark(headers), m.what());
            assertEquals(
                    new WatermarkRecords.Mark(m.writer(), m.watermark(), m.idle()),
                    WatermarkRecords.read(null, null, headers, 4),
                    m.what());
        }
    }

    @Test
    void theFutureFlagIsWrittenAsTheGoldenBytes() {
        Headers flagged = new RecordHeaders();
        WatermarkRecords.flagFuture(flagged);
        List<String> names = new ArrayList<>();
        GoldenBytes golden = GoldenBytes.of("future-flag");
        for (Header h : flagged) {
            names.add(h.key());
            golden.add(
                    "a data record's flag: its event time was beyond the future skew where first read",
                    utf8(h.key()),
                    h.value());
        }
        assertEquals(List.of("weir.future"), names);
        GoldenBytes.Entry stored = golden.verify().get(0);
        Headers read = new RecordHeaders();
        read.add(new String(stored.field(0), StandardCharsets.UTF_8), stored.field(1));
        assertTrue(WatermarkRecords.takeFutureFlag(read));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
