package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Windowed stream–stream joins, one test per rule: records match within {@code [l.t - before, l.t +
 * after]}; each pair is emitted once, by its second record, at {@code max(l.t, r.t)}; an outer side's
 * unmatched record is emitted with null only when the watermark passes its window's end plus the allowed
 * lateness, and a matched one never; late records go to the side output; buffers drop whole segments by the
 * watermark and survive a restart; a changed key is repartitioned; unknown serdes are refused at build time.
 */
class StreamStreamJoinTest {

    private enum Kind {
        INNER,
        LEFT,
        OUTER
    }

    private static final Consumed<String, String> MONOTONOUS =
            Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(WatermarkStrategy.forMonotonousTimestamps());

    /** Impressions (left) joined with clicks (right) by ad id, results "impression+click" to "joined". */
    private static TestDriver ads(Kind kind, JoinWindows windows) {
        return ads(
                kind, windows, StreamJoined.<String, String, String>defaults().withLateRecordsTo("too-late"));
    }

    private static TestDriver ads(Kind kind, JoinWindows windows, StreamJoined<String, String, String> joined) {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> impressions = builder.stream("impressions", MONOTONOUS);
        EventStream<String, String> clicks = builder.stream("clicks", MONOTONOUS);
        EventStream<String, String> out = switch (kind) {
            case INNER -> impressions.join(clicks, (i, c) -> i + "+" + c, windows, joined);
            case LEFT -> impressions.leftJoin(clicks, (i, c) -> i + "+" + c, windows, joined);
            case OUTER -> impressions.outerJoin(clicks, (i, c) -> i + "+" + c, windows, joined);
        };
        out.to("joined", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withCommitInterval(Duration.ofDays(1)));
    }

    private static void impression(TestDriver driver, String ad, String value, long time) {
        driver.input("impressions", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(ad, value).at(time));
    }

    private static void click(TestDriver driver, String ad, String value, long time) {
        driver.input("clicks", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(ad, value).at(time));
    }

    private static TestOutputTopic<String, String> joined(TestDriver driver) {
        return driver.output("joined", Serdes.String(), Serdes.String());
    }

    @Test
    void aPairIsEmittedOnceByItsSecondRecordAtTheLaterEventTimeWithThatRecordsHeaders() {
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofMinutes(10)))) {
            TestOutputTopic<String, String> out = joined(driver);
            click(driver, "ad-1", "c1", 70_000);
            assertTrue(out.isEmpty());
            driver.input("impressions", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("ad-1", "i1")
                            .at(10_000)
                            .withHeader("trace", "t-9".getBytes(StandardCharsets.UTF_8)));
            List<OutputRecord<String, String>> pairs = out.readAll();
            assertEquals(1, pairs.size());
            assertEquals("ad-1", pairs.get(0).key());
            assertEquals("i1+c1", pairs.get(0).value());
            assertEquals(70_000, pairs.get(0).timestamp(), "max(l.t, r.t)");
            assertEquals("t-9", pairs.get(0).header("trace"));
            impression(driver, "ad-2", "i2", 80_000);
            click(driver, "ad-3", "c3", 80_000);
            assertTrue(out.isEmpty(), "other keys, and no second pair for the first");
        }
    }

    @Test
    void recordsMatchOnlyWithinBeforeAndAfterTheLeftRecord() {
        JoinWindows windows =
                JoinWindows.of(Duration.ZERO).withBefore(Duration.ofSeconds(1)).withAfter(Duration.ofSeconds(5));
        try (TestDriver driver = ads(Kind.INNER, windows)) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "ad", "before-2s", 8_000);
            click(driver, "ad", "before-1s", 9_000);
            click(driver, "ad", "after-5s", 15_000);
            click(driver, "ad", "after-6s", 16_000);
            assertEquals(List.of("i+before-1s", "i+after-5s"), joined(driver).readValues());
        }
    }

    @Test
    void everyPairOfSeveralMatchesIsEmittedExactlyOnce() {
        try (TestDriver driver = ads(Kind.OUTER, JoinWindows.of(Duration.ofSeconds(10)))) {
            impression(driver, "ad", "i1", 1_000);
            impression(driver, "ad", "i2", 2_000);
            click(driver, "ad", "c1", 3_000);
            click(driver, "ad", "c2", 4_000);
            driver.endOfInput();
            assertEquals(
                    List.of("i1+c1", "i2+c1", "i1+c2", "i2+c2"), joined(driver).readValues());
        }
    }

    @Test
    void anInnerJoinEmitsNothingForAnUnmatchedRecord() {
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofSeconds(1)))) {
            impression(driver, "ad", "i", 1_000);
            click(driver, "other", "c", 1_000);
            driver.endOfInput();
            assertEquals(List.of(), joined(driver).readValues());
        }
    }

    @Test
    void aLeftJoinEmitsAnUnmatchedLeftRecordWithNullOnlyWhenTheWatermarkPassesItsWindowEndPlusLateness() {
        JoinWindows windows = JoinWindows.of(Duration.ofSeconds(5)).withAllowedLateness(Duration.ofSeconds(2));
        try (TestDriver driver = ads(Kind.LEFT, windows)) {
            TestOutputTopic<String, String> out = joined(driver);
            impression(driver, "ad", "i", 10_000);
            click(driver, "clicked-only", "c", 17_000);
            impression(driver, "shown-only", "x", 17_000);
            assertTrue(out.isEmpty(), "watermark 16,999: a click at 15,000 could still arrive within the lateness");
            click(driver, "clicked-only", "c", 17_001);
            impression(driver, "shown-only", "x", 17_001);
            List<OutputRecord<String, String>> nulls = out.readAll();
            assertEquals(
                    List.of("i+null"),
                    nulls.stream().map(OutputRecord::value).toList(),
                    "watermark 17,000 = 10,000 + 5,000 + 2,000");
            assertEquals(10_000, nulls.get(0).timestamp(), "at the unmatched record's own event time");
            click(driver, "ad", "late", 15_000);
            assertTrue(out.isEmpty(), "a click that would have matched is late now: no pair contradicts the null");
        }
    }

    @Test
    void aMatchedLeftRecordIsNeverEmittedWithNull() {
        try (TestDriver driver = ads(Kind.LEFT, JoinWindows.of(Duration.ofSeconds(5)))) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "ad", "c", 12_000);
            driver.endOfInput();
            assertEquals(List.of("i+c"), joined(driver).readValues());
        }
    }

    @Test
    void anOuterJoinEmitsTheUnmatchedRecordsOfBothSidesWithNull() {
        try (TestDriver driver = ads(Kind.OUTER, JoinWindows.of(Duration.ofSeconds(5)))) {
            impression(driver, "ad-1", "i", 10_000);
            click(driver, "ad-2", "c", 11_000);
            driver.endOfInput();
            assertEquals(List.of("i+null", "null+c"), joined(driver).readValues());
        }
    }

    @Test
    void aLateRecordGoesToTheSideOutputNamingItsJoinWindowAndJoinsNothing() {
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofSeconds(5)))) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "x", "c", 20_000);
            impression(driver, "x", "i", 20_000);
            click(driver, "ad", "late", 12_000);
            assertEquals(List.of("i+c"), joined(driver).readValues(), "only the on-time pair of key x");
            List<OutputRecord<String, String>> late =
                    driver.output("too-late", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, late.size());
            assertEquals("late", late.get(0).value());
            assertEquals(LateRecord.Reason.LATE.name(), late.get(0).header(LateRecord.REASON_HEADER));
            assertEquals("7000", late.get(0).header(LateRecord.WINDOW_START_HEADER));
            assertEquals("17001", late.get(0).header(LateRecord.WINDOW_END_HEADER));
            assertEquals(1, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void aRecordWhoseWindowClosedStillJoinsThePartnersStillHeld() {
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofSeconds(5)))) {
            impression(driver, "ad", "i", 16_000);
            click(driver, "x", "c", 20_000);
            impression(driver, "x", "y", 20_000);
            // The watermark is 19,999: the click's window [7,000, 17,000] has closed, but the impression at
            // 16,000 is held until 21,000 (its own window's end), so the pair is still possible.
            click(driver, "ad", "behind", 12_000);
            List<OutputRecord<String, String>> pairs = joined(driver).readAll();
            assertEquals(
                    List.of("y+c", "i+behind"),
                    pairs.stream().map(OutputRecord::value).toList());
            assertEquals(16_000, pairs.get(1).timestamp());
            assertTrue(
                    driver.output("too-late", Serdes.String(), Serdes.String()).isEmpty());
        }
    }

    @Test
    void anOuterSidesRecordThatArrivesTooLateToJoinAnythingIsPaddedAtOnce() {
        try (TestDriver driver = ads(Kind.LEFT, JoinWindows.of(Duration.ofSeconds(5)))) {
            click(driver, "x", "c", 20_000);
            impression(driver, "x", "y", 20_000);
            impression(driver, "ad", "alone", 10_000);
            assertEquals(List.of("y+c", "alone+null"), joined(driver).readValues());
            assertTrue(
                    driver.output("too-late", Serdes.String(), Serdes.String()).isEmpty());
        }
    }

    @Test
    void allowedLatenessLetsARecordBehindTheWatermarkJoin() {
        JoinWindows windows = JoinWindows.of(Duration.ofSeconds(5)).withAllowedLateness(Duration.ofSeconds(10));
        try (TestDriver driver = ads(Kind.INNER, windows)) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "x", "c", 20_000);
            impression(driver, "x", "y", 19_000);
            click(driver, "ad", "behind", 12_000);
            assertEquals(List.of("y+c", "i+behind"), joined(driver).readValues());
        }
    }

    @Test
    void theBuffersDropASegmentOnceTheWatermarkPassesItsLastMillisecondPlusTheWindow() {
        // A 5 s window either way: 5 s segments; the segment [10,000, 15,000) goes at watermark 19,999.
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofSeconds(5)))) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "ad", "c", 11_000);
            assertEquals(2, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS));
            impression(driver, "y", "i", 19_999);
            click(driver, "y", "c", 19_999);
            assertEquals(
                    4, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS), "watermark 19,998 drops nothing");
            impression(driver, "z", "i", 20_000);
            click(driver, "z", "c", 20_000);
            assertEquals(
                    4,
                    driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS),
                    "watermark 19,999 drops the records at 10,000 and 11,000; those at 19,999 and 20,000 stay");
        }
    }

    @Test
    void aRestoreDropsTheSegmentsTheRestoredWatermarkHasPassed() {
        // In memory, so the restart restores the buffers from their changelogs.
        StreamJoined<String, String, String> inMemory =
                StreamJoined.<String, String, String>defaults().inMemory();
        try (TestDriver driver = ads(Kind.INNER, JoinWindows.of(Duration.ofSeconds(5)), inMemory)) {
            impression(driver, "ad", "i", 10_000);
            click(driver, "ad", "c", 11_000);
            driver.commit();
            impression(driver, "x", "i", 30_000);
            click(driver, "x", "c", 30_000);
            driver.restart();
            // The changelog still holds the records at 10,000 and 11,000: a dropped segment leaves no tombstone.
            assertEquals(2, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS), "only the records at 30,000");
        }
    }

    @Test
    void theBuffersSurviveARestart() {
        try (TestDriver driver = ads(Kind.LEFT, JoinWindows.of(Duration.ofSeconds(5)))) {
            TestOutputTopic<String, String> out = joined(driver);
            impression(driver, "ad", "i", 10_000);
            driver.restart();
            click(driver, "ad", "c", 14_000);
            driver.endOfInput();
            assertEquals(List.of("i+c"), out.readValues(), "matched after the restart, so never emitted with null");
        }
    }

    @Test
    void aStreamWhoseKeyChangedIsRepartitionedBeforeTheJoin() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> impressions =
                builder.stream("impressions", MONOTONOUS).selectKey((user, ad) -> ad);
        EventStream<String, String> clicks = builder.stream("clicks", MONOTONOUS);
        impressions
                .join(clicks, (ad, click) -> ad + "+" + click, JoinWindows.of(Duration.ofMinutes(1)))
                .to("joined", Produced.with(Serdes.String(), Serdes.String()));
        TestDriverConfig config =
                TestDriverConfig.defaults().withPartitions("impressions", 2).withPartitions("clicks", 3);
        try (TestDriver driver = new TestDriver(builder.build(), config)) {
            for (int i = 0; i < 6; i++) {
                driver.input("impressions", Serdes.String(), Serdes.String())
                        .pipe(TestRecord.of("user-" + i, "ad-" + i).at(1_000));
                click(driver, "ad-" + i, "c" + i, 2_000);
            }
            List<OutputRecord<String, String>> pairs = joined(driver).readAll();
            assertEquals(6, pairs.size());
            for (OutputRecord<String, String> pair : pairs) {
                assertEquals(pair.key() + "+c" + pair.key().substring(3), pair.value());
            }
        }
    }

    @Test
    void aJoinWhoseBufferSerdesAreUnknownIsRefusedAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, Integer> lengths =
                builder.stream("impressions", MONOTONOUS).mapValues(String::length);
        EventStream<String, String> clicks = builder.stream("clicks", MONOTONOUS);
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> lengths.join(clicks, (l, c) -> l + c, JoinWindows.of(Duration.ofSeconds(1))));
        assertTrue(e.getMessage().contains("left stream's value serde"), e.getMessage());
        assertTrue(e.getMessage().contains("StreamJoined.with"), e.getMessage());
    }

    @Test
    void aRecordWithANullKeyIsCountedAndSkipped() {
        try (TestDriver driver = ads(Kind.OUTER, JoinWindows.of(Duration.ofSeconds(5)))) {
            driver.input("impressions", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.<String, String>of(null, "i").at(1_000));
            driver.endOfInput();
            assertEquals(List.of(), joined(driver).readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        }
    }

    @Test
    void aStreamJoinedWithItselfPairsEveryOrderedPairOnce() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> events = builder.stream("impressions", MONOTONOUS);
        events.join(events, (a, b) -> a + "+" + b, JoinWindows.of(Duration.ofSeconds(5)))
                .to("joined", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            impression(driver, "k", "a", 1_000);
            impression(driver, "k", "b", 2_000);
            assertEquals(List.of("a+a", "b+a", "a+b", "b+b"), joined(driver).readValues());
        }
    }
}
