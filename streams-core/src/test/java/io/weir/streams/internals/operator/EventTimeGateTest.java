package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.testing.RecordingContext;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an operator's event-time gate lets in, and when it says a span is closed: one test per rule. */
class EventTimeGateTest {

    @TempDir
    Path dir;

    private RecordingContext context;

    @AfterEach
    void close() {
        context.close();
    }

    private EventTimeGate input(String lateTopic) {
        return gate(lateTopic, 0);
    }

    private EventTimeGate gate(String lateTopic, long allowedLateness) {
        context = new RecordingContext(dir);
        return new EventTimeGate(context, new LateDataOutput(lateTopic, context), allowedLateness);
    }

    private static Record<String, String> record(String key, boolean future) {
        SourceInfo source = new SourceInfo(
                "in",
                0,
                7,
                1_000,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                "v".getBytes(StandardCharsets.UTF_8),
                new RecordHeaders(),
                future);
        return new Record<>(key, "v", 1_000, null, source);
    }

    @Test
    void aRecordWithAKeyAndATrustedTimeIsAdmitted() {
        assertTrue(input(null).admits(record("k", false)));
        assertEquals(0, context.metric(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
    }

    @Test
    void aRecordWithANullKeyIsCountedAndSkipped() {
        assertFalse(input("late").admits(record(null, false)));
        assertEquals(1, context.metric(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        assertEquals(0, context.sent().size(), "skipped, not diverted");
    }

    @Test
    void aFutureSkewedRecordIsRefusedCountedAndSentToTheLateTopicWhenThereIsOne() {
        EventTimeGate withTopic = input("late");
        assertFalse(withTopic.admits(record("k", true)));
        assertEquals(1, context.metric(WeirMetrics.FUTURE_RECORDS_DROPPED));
        assertEquals(1, context.sent().size());
        RecordingContext.Sent sent = context.sent().get(0);
        assertEquals("late", sent.topic());
        assertEquals(
                LateRecord.Reason.FUTURE_TIMESTAMP.name(),
                new String(sent.headers().lastHeader(LateRecord.REASON_HEADER).value(), StandardCharsets.UTF_8));
    }

    @Test
    void withoutALateTopicAFutureSkewedRecordIsOnlyCounted() {
        assertFalse(input(null).admits(record("k", true)));
        assertEquals(1, context.metric(WeirMetrics.FUTURE_RECORDS_DROPPED));
        assertEquals(0, context.sent().size());
    }

    @Test
    void theWatermarkStartsAtTheTasksAndOnlyMovesForward() {
        context = new RecordingContext(dir);
        context.watermark(1_000);
        EventTimeGate gate = new EventTimeGate(context, new LateDataOutput(null, context), 0);
        assertEquals(1_000, gate.watermark());
        assertFalse(gate.advance(1_000), "the same watermark is no advance");
        assertFalse(gate.advance(999));
        assertEquals(1_000, gate.watermark());
        assertTrue(gate.advance(1_001));
        assertEquals(1_001, gate.watermark());
    }

    @Test
    void aSpanIsClosedOnceTheWatermarkReachesItsLastMillisecondPlusTheAllowedLateness() {
        EventTimeGate gate = gate(null, 100);
        gate.advance(1_098);
        assertFalse(gate.closed(999));
        gate.advance(1_099);
        assertTrue(gate.closed(999), "999 + 100");
        assertFalse(gate.closed(1_000));
        assertEquals(Long.MAX_VALUE, gate.closeTime(Long.MAX_VALUE - 1), "saturates");
    }

    @Test
    void nothingIsClosedBeforeTheFirstWatermark() {
        EventTimeGate gate = gate(null, 0);
        assertFalse(gate.closed(Long.MIN_VALUE), "not even the earliest span");
        gate.advance(Long.MIN_VALUE + 1);
        assertTrue(gate.closed(Long.MIN_VALUE));
    }

    @Test
    void aNegativeAllowedLatenessIsRefused() {
        context = new RecordingContext(dir);
        assertThrows(
                IllegalArgumentException.class,
                () -> new EventTimeGate(context, new LateDataOutput(null, context), -1));
    }
}
