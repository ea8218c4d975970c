package io.weir.streams.internals.task;

import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A task's watermark, one test per rule of {@link WatermarkStrategy} and the event-time contract. */
class WatermarkTrackerTest {

    private static final TopicPartition A = new TopicPartition("a", 0);
    private static final TopicPartition B = new TopicPartition("b", 0);
    private static final TopicPartition REPARTITION = new TopicPartition("app-r-repartition", 0);
    private static final WatermarkStrategy DELAY_5S = WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5));

    private final WatermarkTracker tracker = new WatermarkTracker();

    private void record(TopicPartition p, long eventTime, long now) {
        tracker.markActive(p, now);
        tracker.observe(p, eventTime);
    }

    @Test
    void aPartitionsWatermarkIsItsLargestEventTimeLessTheDelayLessOneMillisecond() {
        tracker.add(A, DELAY_5S, 0, false);
        assertEquals(Long.MIN_VALUE, tracker.partitionWatermark(A), "no record yet");
        record(A, 60_000, 0);
        record(A, 50_000, 0);
        assertEquals(54_999, tracker.partitionWatermark(A));
        assertEquals(54_999, tracker.advance());
    }

    @Test
    void theTasksWatermarkIsTheMinimumOverItsPartitions() {
        tracker.add(A, DELAY_5S, 0, false);
        tracker.add(B, DELAY_5S, 0, false);
        record(A, 60_000, 0);
        assertEquals(Long.MIN_VALUE, tracker.advance(), "B has no record yet and holds it back");
        record(B, 30_000, 0);
        assertEquals(24_999, tracker.advance());
    }

    @Test
    void aTablesPartitionDoesNotHoldBackTheStreamsOfItsTask() {
        tracker.add(A, DELAY_5S, 0, false);
        tracker.add(B, DELAY_5S, 0, true);
        record(A, 60_000, 0);
        assertEquals(54_999, tracker.advance(), "table B has no record, and is not waited for");
        record(B, 1_000, 0);
        assertEquals(54_999, tracker.advance());
        assertEquals(-4_001, tracker.partitionWatermark(B), "the table keeps a watermark of its own");
    }

    @Test
    void aTaskThatReadsOnlyTablesTakesItsWatermarkFromThem() {
        tracker.add(A, DELAY_5S, 0, true);
        tracker.add(B, DELAY_5S, 0, true);
        record(A, 60_000, 0);
        assertEquals(Long.MIN_VALUE, tracker.advance());
        record(B, 30_000, 0);
        assertEquals(24_999, tracker.advance());
    }

    @Test
    void theWatermarkNeverMovesBack() {
        tracker.add(A, DELAY_5S, 0, false);
        record(A, 60_000, 0);
        assertEquals(54_999, tracker.advance());
        tracker.add(B, DELAY_5S, 0, false);
        record(B, 10_000, 0);
        assertEquals(54_999, tracker.advance(), "a slower partition does not take it back");
    }

    @Test
    void aPartitionQuietForTheIdlenessIsLeftOutUntilItsNextRecord() {
        WatermarkStrategy idle30s = DELAY_5S.withIdleness(Duration.ofSeconds(30));
        tracker.add(A, idle30s, 0, false);
        tracker.add(B, idle30s, 0, false);
        record(A, 60_000, 0);
        record(B, 10_000, 0);
        record(A, 90_000, 20_000);
        tracker.onProcessingTime(29_999);
        assertFalse(tracker.isIdle(B));
        assertEquals(4_999, tracker.advance());
        tracker.onProcessingTime(30_000);
        assertTrue(tracker.isIdle(B), "30 s of processing time without a record");
        assertEquals(84_999, tracker.advance(), "B no longer holds the watermark back");
        record(B, 11_000, 31_000);
        assertFalse(tracker.isIdle(B), "its next record brings it back");
        assertEquals(84_999, tracker.advance(), "and the watermark does not move back for it");
    }

    @Test
    void whenEveryPartitionIsIdleTheWatermarkStaysPut() {
        tracker.add(A, DELAY_5S.withIdleness(Duration.ofSeconds(1)), 0, false);
        record(A, 60_000, 0);
        assertEquals(54_999, tracker.advance());
        tracker.onProcessingTime(10_000);
        assertTrue(tracker.allIdle());
        assertEquals(54_999, tracker.advance());
    }

    @Test
    void aRepartitionPartitionsWatermarkIsTheMinimumOverItsWritersThatAreNotIdle() {
        tracker.addUpstream(REPARTITION, 2, true);
        tracker.upstream(REPARTITION, 0, 50_000, false);
        assertEquals(Long.MIN_VALUE, tracker.advance(), "writer 1 has not reported");
        tracker.upstream(REPARTITION, 1, 40_000, false);
        assertEquals(40_000, tracker.advance());
        tracker.upstream(REPARTITION, 1, 45_000, true);
        assertEquals(50_000, tracker.advance(), "an idle writer is left out");
        tracker.upstream(REPARTITION, 0, 60_000, true);
        assertTrue(tracker.isIdle(REPARTITION), "idle when all its writers are");
        assertThrows(IllegalStateException.class, () -> tracker.upstream(REPARTITION, 2, 0, false));
    }

    @Test
    void theEndOfInputMovesTheWatermarkToInfinity() {
        tracker.add(A, DELAY_5S, 0, false);
        assertEquals(Long.MAX_VALUE, tracker.endOfInput());
    }

    @Test
    void whatIsCommittedWithTheOffsetsRestoresTheSameJudgementOfLateness() {
        tracker.add(A, DELAY_5S, 0, false);
        tracker.addUpstream(REPARTITION, 2, true);
        record(A, 60_000, 0);
        tracker.upstream(REPARTITION, 0, 70_000, false);
        tracker.upstream(REPARTITION, 1, 80_000, false);
        long watermark = tracker.advance();
        var committed = tracker.committedTime();
        assertEquals("w=54999;m=60000", committed.get(A));
        assertEquals("w=54999;u=70000,80000", committed.get(REPARTITION));

        WatermarkTracker restored = new WatermarkTracker();
        restored.add(A, DELAY_5S, 0, false);
        restored.addUpstream(REPARTITION, 2, true);
        committed.forEach(restored::restore);
        assertEquals(watermark, restored.advance());
        assertEquals(54_999, restored.partitionWatermark(A));
        assertEquals(70_000, restored.partitionWatermark(REPARTITION));
    }

    @Test
    void committedTextFromAnotherVersionIsReadForWhatItKnowsAndTheRestIgnored() {
        tracker.add(A, DELAY_5S, 0, false);
        tracker.restore(A, "w=10;m=20;x=unknown;junk");
        tracker.restore(A, null);
        assertEquals(20 - 5_000 - 1, tracker.partitionWatermark(A));
        assertEquals(10, tracker.watermark());
    }

    @Test
    void aCommittedFieldThatIsNotANumberIsIgnoredNotAFailure() {
        tracker.add(A, DELAY_5S, 0, false);
        tracker.restore(A, "w=abc;m=20");
        assertEquals(20 - 5_000 - 1, tracker.partitionWatermark(A));
        tracker.restore(A, "w=;m=1e9");
        assertEquals(20 - 5_000 - 1, tracker.partitionWatermark(A));
    }
}
