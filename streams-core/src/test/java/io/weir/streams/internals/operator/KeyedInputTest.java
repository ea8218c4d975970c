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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a keyed operator lets in, one test per rule. */
class KeyedInputTest {

    @TempDir
    Path dir;

    private RecordingContext context;

    @AfterEach
    void close() {
        context.close();
    }

    private KeyedInput input(String lateTopic) {
        context = new RecordingContext(dir);
        return new KeyedInput(context, new LateDataOutput(lateTopic, context));
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
        assertTrue(input(null).admits(record("k", false), 0));
        assertEquals(0, context.metric(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
    }

    @Test
    void aRecordWithANullKeyIsCountedAndSkipped() {
        assertFalse(input("late").admits(record(null, false), 0));
        assertEquals(1, context.metric(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        assertEquals(0, context.sent().size(), "skipped, not diverted");
    }

    @Test
    void aFutureSkewedRecordIsRefusedCountedAndSentToTheLateTopicWhenThereIsOne() {
        KeyedInput withTopic = input("late");
        assertFalse(withTopic.admits(record("k", true), 500));
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
        assertFalse(input(null).admits(record("k", true), 500));
        assertEquals(1, context.metric(WeirMetrics.FUTURE_RECORDS_DROPPED));
        assertEquals(0, context.sent().size());
    }
}
