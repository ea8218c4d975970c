package io.weir.streams.internals.join;

import io.weir.streams.internals.testing.RecordingContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One side's buffer of a stream–stream join, one test per rule, over real RocksDB stores: what it hands to a
 * match, when an outer side's unmatched records leave, when segments are dropped, and what a restarted
 * buffer still holds.
 */
class JoinBufferTest {

    private static final String STORE = "left";
    private static final String UNMATCHED = "left-unmatched";
    /** Segments of a second: segment n holds [n * 1000, (n + 1) * 1000). */
    private static final long SEGMENT_MS = 1_000;
    /** A record may match up to 500 ms after its time. */
    private static final long KEEP = 500;

    @TempDir
    Path dir;

    private RecordingContext context;
    private JoinBuffer buffer;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** An outer side's buffer (with its unmatched index), from {@code watermark}. */
    private JoinBuffer outer(long watermark) {
        context = new RecordingContext(dir, STORE, UNMATCHED);
        buffer = JoinBuffer.own(
                context.stores().cache(STORE), context.stores().cache(UNMATCHED), SEGMENT_MS, KEEP, watermark);
        return buffer;
    }

    private JoinBuffer inner() {
        context = new RecordingContext(dir, STORE);
        buffer = JoinBuffer.own(context.stores().cache(STORE), null, SEGMENT_MS, KEEP, Long.MIN_VALUE);
        return buffer;
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    /** Commits, closes and opens the outer buffer again over what RocksDB kept, at {@code watermark}. */
    private void restart(long watermark) {
        context.stores().completeCommit(context.stores().prepareCommit(), Map.of());
        context.close();
        outer(watermark);
    }

    private void add(String key, long time, String record, boolean matched) {
        buffer.add(utf8(key), time, utf8(record), matched);
    }

    private List<String> match(String key, long from, long to, boolean mark) {
        List<String> found = new ArrayList<>();
        buffer.match(
                utf8(key),
                from,
                to,
                mark,
                (time, record) -> found.add(new String(record, StandardCharsets.UTF_8) + "@" + time));
        return found;
    }

    private List<String> expire(long watermark) {
        List<String> left = new ArrayList<>();
        buffer.expire(
                watermark,
                (key, time, record) -> left.add(new String(key, StandardCharsets.UTF_8) + ":"
                        + new String(record, StandardCharsets.UTF_8) + "@" + time));
        return left;
    }

    @Test
    void theSegmentIsHalfTheWindowAndAtLeastASecond() {
        assertEquals(1_000, JoinBuffer.segmentMs(100, 100));
        assertEquals(4_000, JoinBuffer.segmentMs(5_000, 3_000));
        assertEquals(Long.MAX_VALUE / 2, JoinBuffer.segmentMs(Long.MAX_VALUE, Long.MAX_VALUE), "saturates");
    }

    @Test
    void aMatchFindsTheKeysRecordsWithTheirTimeInTheRangeBothBoundsIncluded() {
        outer(Long.MIN_VALUE);
        add("k", 999, "before", false);
        add("k", 1_000, "from", false);
        add("k", 1_200, "inside", false);
        add("k", 1_500, "to", false);
        add("k", 1_501, "after", false);
        assertEquals(List.of("from@1000", "inside@1200", "to@1500"), match("k", 1_000, 1_500, false));
    }

    @Test
    void aMatchFindsOnlyItsOwnKeyNotOneItPrefixes() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "mine", false);
        add("k2", 1_000, "longer key", false);
        add("", 1_000, "empty key", false);
        assertEquals(List.of("mine@1000"), match("k", 0, 2_000, false));
        assertEquals(List.of("empty key@1000"), match("", 0, 2_000, false));
    }

    @Test
    void aMatchHandsRecordsInTimeOrderThenArrivalOrderAcrossSegments() {
        outer(Long.MIN_VALUE);
        add("k", 2_100, "c", false);
        add("k", -100, "a", false);
        add("k", 900, "b1", false);
        add("k", 900, "b2", false);
        assertEquals(List.of("a@-100", "b1@900", "b2@900", "c@2100"), match("k", -1_000, 3_000, false));
    }

    @Test
    void anUnmatchedRecordOfAnOuterSideLeavesWhenTheWatermarkReachesItsTimePlusKeep() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", false);
        assertEquals(List.of(), expire(1_499));
        assertEquals(List.of("k:r@1000"), expire(1_500));
        assertEquals(List.of(), expire(3_000), "it leaves once");
    }

    @Test
    void unmatchedRecordsLeaveInTheOrderOfTheirTimes() {
        outer(Long.MIN_VALUE);
        add("b", 2_000, "late", false);
        add("a", 1_000, "early", false);
        add("a", 1_000, "early too", false);
        assertEquals(List.of("a:early@1000", "a:early too@1000", "b:late@2000"), expire(2_500));
    }

    @Test
    void aRecordAddedMatchedNeverLeavesAsUnmatched() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", true);
        assertEquals(List.of(), expire(Long.MAX_VALUE));
    }

    @Test
    void aRecordMarkedByAMatchNoLongerLeavesAsUnmatched() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "marked", false);
        add("k", 1_100, "only seen", false);
        match("k", 1_000, 1_000, true);
        match("k", 1_100, 1_100, false);
        assertEquals(List.of("k:only seen@1100"), expire(2_000));
    }

    @Test
    void theOtherSidesViewMarksWhatItMatchesInTheSameStore() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", false);
        JoinBuffer partners = JoinBuffer.partners(context.stores().cache(STORE), SEGMENT_MS);
        List<String> found = new ArrayList<>();
        partners.match(
                utf8("k"), 0, 2_000, true, (time, record) -> found.add(new String(record, StandardCharsets.UTF_8)));
        assertEquals(List.of("r"), found);
        assertEquals(List.of(), expire(2_000), "marked by the other side");
    }

    @Test
    void theOtherSidesViewOnlyMatches() {
        outer(Long.MIN_VALUE);
        JoinBuffer partners = JoinBuffer.partners(context.stores().cache(STORE), SEGMENT_MS);
        assertThrows(IllegalStateException.class, () -> partners.add(utf8("k"), 0, utf8("r"), false));
        assertThrows(IllegalStateException.class, partners::size);
    }

    @Test
    void anInnerSideHandsNothingAtExpiryButStillDropsItsSegments() {
        inner();
        add("k", 1_000, "r", false);
        assertEquals(List.of(), expire(2_498));
        assertEquals(1, buffer.size());
        assertEquals(List.of(), expire(2_499));
        assertEquals(0, buffer.size());
        assertEquals(List.of(), match("k", 0, 3_000, false));
    }

    @Test
    void aSegmentIsDroppedWhenTheWatermarkPassesItsLastMillisecondPlusKeep() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "first of segment 1", true);
        add("k", 1_999, "last of segment 1", true);
        add("k", 2_000, "first of segment 2", true);
        expire(2_498);
        assertEquals(3, buffer.size(), "segment 1 is held until 1999 + 500");
        assertEquals(3, match("k", 0, 3_000, false).size());
        expire(2_499);
        assertEquals(List.of("first of segment 2@2000"), match("k", 0, 3_000, false));
        assertEquals(1, buffer.size());
    }

    @Test
    void aRecordIsHeldUpToASegmentLongerThanItCanMatch() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", true);
        expire(1_500);
        assertEquals(List.of("r@1000"), match("k", 1_000, 1_000, false), "its segment ends at 1999");
    }

    @Test
    void negativeTimesHaveSegmentsOfTheirOwn() {
        outer(Long.MIN_VALUE);
        add("k", -1, "last of segment -1", false);
        add("k", 0, "first of segment 0", false);
        assertEquals(List.of("k:last of segment -1@-1"), expire(499));
        assertEquals(List.of("first of segment 0@0"), match("k", -1_000, 1_000, false));
    }

    @Test
    void theSizeCountsTheRecordsHeld() {
        outer(Long.MIN_VALUE);
        add("a", 100, "1", false);
        add("b", 100, "2", true);
        add("a", 5_000, "3", false);
        assertEquals(3, buffer.size());
        expire(1_499);
        assertEquals(1, buffer.size());
    }

    @Test
    void aRestartedBufferHoldsWhatWasCommittedAndKeepsArrivalOrder() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "before restart", false);
        restart(Long.MIN_VALUE);
        assertEquals(1, buffer.size(), "counted again from the store");
        add("k", 1_000, "after restart", false);
        assertEquals(List.of("before restart@1000", "after restart@1000"), match("k", 1_000, 1_000, false));
        assertEquals(List.of("k:before restart@1000", "k:after restart@1000"), expire(1_500));
    }

    @Test
    void aRestartedBufferDropsTheSegmentsItsWatermarkHadPassed() {
        outer(Long.MIN_VALUE);
        add("k", 100, "passed", true);
        add("k", 1_100, "held", true);
        restart(1_499);
        assertEquals(1, buffer.size());
        assertEquals(List.of("held@1100"), match("k", 0, 2_000, false));
    }

    @Test
    void anUnmatchedRecordRestoredPastItsEndLeavesAtTheNextExpiry() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", false);
        restart(1_600);
        assertEquals(List.of("k:r@1000"), expire(1_600), "its segment is still held until 2499");
    }

    /**
     * A restored watermark may have passed the whole segment of an unmatched record still pending in the
     * outer side's index: the segment stays until that record has been handed over, so its null-padded
     * result is not lost.
     */
    @Test
    void anUnmatchedRecordRestoredPastItsWholeSegmentStillLeaves() {
        outer(Long.MIN_VALUE);
        add("k", 1_000, "r", false);
        restart(2_600);
        assertEquals(List.of("k:r@1000"), expire(2_600));
        assertEquals(0, buffer.size(), "then the segment goes");
    }
}
