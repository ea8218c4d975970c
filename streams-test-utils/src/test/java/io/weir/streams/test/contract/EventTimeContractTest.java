package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static io.weir.streams.test.contract.WindowedCountFixture.WINDOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per rule of the event-time contract (docs/concepts/event-time.md, and the Javadoc of
 * {@code Windows} and {@code Trigger}). Windows are 10 s tumbling windows: [0, 10000), [10000, 20000), ...
 */
class EventTimeContractTest {

    private static PaneInfo pane(OutputRecord<?, ?> r) {
        return r.pane().orElseThrow();
    }

    @Test
    void rule1_eventTimeIsTheKafkaTimestampByDefault() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            f.pipe("a", 12_345);
            assertEquals(
                    12_345 - 1,
                    f.watermark(),
                    "W = max event time - delay - 1, with the Kafka timestamp as event time");
        }
    }

    @Test
    void rule1_recordsBeyondMaxFutureSkewNeverAdvanceTheWatermarkAndGoToTheSideOutput() {
        WatermarkStrategy strategy =
                WatermarkStrategy.forMonotonousTimestamps().withMaxFutureSkew(Duration.ofSeconds(60));
        try (WindowedCountFixture f = WindowedCountFixture.of(strategy, Duration.ZERO, true, 1)) {
            f.pipe("a", 5_000, 0, 100_000);
            f.pipe("a", 100_000 + 60_001, 0, 100_000);
            assertEquals(4_999, f.watermark(), "the future record did not move the watermark");
            List<OutputRecord<String, String>> late = f.late.readAll();
            assertEquals(1, late.size());
            assertEquals("FUTURE_TIMESTAMP", late.get(0).header(LateRecord.REASON_HEADER));
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.FUTURE_RECORDS_DROPPED));
            f.pipe("a", 100_000 + 60_000, 0, 100_000);
            assertEquals(159_999, f.watermark(), "exactly maxFutureSkew ahead is still valid");
        }
    }

    @Test
    void rule1_theApplicationsMaximumFutureSkewAppliesToSourcesThatSetNone() {
        long now = 1_000_000_000L;
        long hour = 3_600_000;
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(io.weir.streams.dsl.TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to("counts", Produced.with(io.weir.streams.serde.WindowedSerdes.string(), Serdes.Long()));
        TestDriverConfig runtimeDefault = TestDriverConfig.defaults().withMaxFutureSkew(Duration.ofHours(1));
        try (TestDriver driver = new TestDriver(builder.build(), runtimeDefault)) {
            TestInputTopic<String, String> in = driver.input("events", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("a", "v").at(now).arrivingAt(now));
            in.pipe(TestRecord.of("a", "v").at(now + 10 * 365 * 24 * hour).arrivingAt(now));
            assertEquals(now - 1, driver.watermark("events", 0), "a record ten years ahead did not move the watermark");
            assertEquals(1, driver.metrics().total(WeirMetrics.FUTURE_RECORDS_DROPPED));
            in.pipe(TestRecord.of("a", "v").at(now + hour).arrivingAt(now));
            assertEquals(now + hour - 1, driver.watermark("events", 0), "exactly an hour ahead is still valid");
        }
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("events", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("a", "v").at(now).arrivingAt(now));
            in.pipe(TestRecord.of("a", "v").at(now + 2 * hour).arrivingAt(now));
            assertEquals(
                    now + 2 * hour - 1,
                    driver.watermark("events", 0),
                    "the TestDriver applies none unless asked: its clock moves only when the test moves it");
        }
    }

    @Test
    void rule1_withoutAMaximumFutureSkewEveryEventTimeMovesTheWatermark() {
        long now = 1_000_000_000L;
        WatermarkStrategy trusting = WatermarkStrategy.forMonotonousTimestamps().withoutMaxFutureSkew();
        assertTrue(trusting.maxFutureSkew().isEmpty());
        try (WindowedCountFixture f = WindowedCountFixture.of(trusting, Duration.ZERO, false, 1)) {
            f.pipe("a", now, 0, now);
            f.pipe("a", Long.MAX_VALUE - 1, 0, now);
            assertEquals(Long.MAX_VALUE - 2, f.watermark());
        }
    }

    @Test
    void rule1_theFutureSkewIsJudgedOnceWhereARecordIsFirstReadNotAgainAfterARepartition() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withoutMaxFutureSkew()))
                .selectKey((k, v) -> v)
                .groupByKey(io.weir.streams.dsl.Grouped.with(Serdes.String(), Serdes.String()))
                .count(io.weir.streams.dsl.Materialized.as("counts"));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("k", "x").at(1_000).arrivingAt(1_000));
            in.pipe(TestRecord.of("k", "x")
                    .at(1_000 + 10 * 365 * 24 * 3_600_000L)
                    .arrivingAt(1_000));
            driver.commit();
            assertEquals(
                    java.util.Map.of("x", 2L),
                    driver.table("counts", Serdes.String(), Serdes.Long()),
                    "the repartition's reading side applies no default skew of its own");
        }
    }

    @Test
    void rule1_futureRecordsAreDroppedAndCountedWithoutASideOutput() {
        WatermarkStrategy strategy = WatermarkStrategy.forMonotonousTimestamps().withMaxFutureSkew(Duration.ZERO);
        try (WindowedCountFixture f = WindowedCountFixture.of(strategy, Duration.ZERO, false, 1)) {
            f.pipe("a", 1_000, 0, 0);
            f.driver.endOfInput();
            assertTrue(f.panes().isEmpty());
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.FUTURE_RECORDS_DROPPED));
            assertEquals(0, f.driver.metrics().get("counts", WeirMetrics.SIDE_OUTPUT_RECORDS));
        }
    }

    @Test
    void rule2_partitionWatermarkIsMaxSeenMinusDelayMinusOne() {
        try (WindowedCountFixture f = WindowedCountFixture.of(2_000, 0)) {
            assertEquals(Long.MIN_VALUE, f.driver.partitionWatermark("events", 0), "no record yet");
            f.pipe("a", 10_000);
            f.pipe("a", 7_000);
            assertEquals(10_000 - 2_000 - 1, f.driver.partitionWatermark("events", 0));
            f.pipe("a", 15_000);
            assertEquals(15_000 - 2_000 - 1, f.driver.partitionWatermark("events", 0));
        }
    }

    @Test
    void metrics_watermarkLagIsProcessingTimeMinusTheTaskWatermark() {
        try (WindowedCountFixture f = WindowedCountFixture.of(2_000, 0)) {
            assertEquals(-1, f.driver.metrics().get("task-0_0", WeirMetrics.WATERMARK_LAG_MS), "no watermark yet");
            f.pipe("a", 10_000, 0, 30_000);
            assertEquals(
                    30_000 - (10_000 - 2_000 - 1), f.driver.metrics().get("task-0_0", WeirMetrics.WATERMARK_LAG_MS));
            f.driver.endOfInput();
            assertEquals(
                    0,
                    f.driver.metrics().get("task-0_0", WeirMetrics.WATERMARK_LAG_MS),
                    "a watermark at +infinity lags by 0");
        }
    }

    @Test
    void rule2_aPartitionSilentForTheIdlenessIsLeftOutAndRejoinsOnItsNextRecord() {
        WatermarkStrategy strategy = WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(30));
        try (WindowedCountFixture f = WindowedCountFixture.of(strategy, Duration.ZERO, true, 2)) {
            String topic = "events";
            f.pipe("a", 1_000, 0, 0);
            f.pipe("b", 50_000, 1, 0);
            // The two partitions are separate tasks in the TestDriver; check each partition's idleness.
            f.pipe("b", 60_000, 1, 29_999);
            assertFalse(f.driver.isIdle(topic, 0), "29.999 s of silence is not yet idle");
            f.driver.advanceTime(Duration.ofMillis(1));
            assertTrue(f.driver.isIdle(topic, 0), "30 s of silence: idle");
            f.pipe("a", 2_000, 0, 40_000);
            assertFalse(f.driver.isIdle(topic, 0), "its next record makes it active again");
        }
    }

    @Test
    void rule3_theTaskWatermarkIsTheMinimumOverNonIdlePartitions() {
        // A single task reading two topics' partition 0: the TestDriver's way to give one task two partitions.
        try (MultiInputFixture f = MultiInputFixture.of(Duration.ofSeconds(30))) {
            f.pipe("left", 50_000, 0);
            f.pipe("right", 20_000, 0);
            assertEquals(19_999, f.driver.watermark("left", 0), "min(49 999, 19 999)");
            f.pipe("right", 70_000, 10_000);
            assertEquals(49_999, f.driver.watermark("left", 0), "min(49 999, 69 999)");
            f.driver.advanceTime(Duration.ofSeconds(30));
            assertTrue(f.driver.isIdle("left", 0));
            assertTrue(f.driver.isIdle("right", 0));
            assertEquals(49_999, f.driver.watermark("left", 0), "all partitions idle: the watermark stays");
            f.pipe("right", 90_000, 45_000);
            assertEquals(89_999, f.driver.watermark("left", 0), "only 'right' is active: its watermark alone counts");
        }
    }

    @Test
    void rule3_theWatermarkNeverMovesBack() {
        WatermarkStrategy strategy = WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(10));
        try (MultiInputFixture f = MultiInputFixture.of(strategy)) {
            f.pipe("left", 50_000, 5_000);
            f.driver.advanceTime(Duration.ofSeconds(5));
            assertEquals(
                    49_999, f.driver.watermark("left", 0), "'right' never produced: idle 10 s after the task started");
            f.pipe("right", 1_000, 12_000);
            assertEquals(
                    49_999, f.driver.watermark("left", 0), "a partition rejoining far behind does not pull W back");
        }
    }

    @Test
    void rule3_aRecordIsJudgedAgainstTheWatermarkOfTheRecordsBeforeIt() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            f.pipe("a", 5_000);
            f.pipe("a", 10_000);
            // W was 4 999 when this record arrived: it is on time, although after it W = 9 999 closes [0, 10000).
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(1, panes.size());
            assertEquals(new Window(0, WINDOW), panes.get(0).key().window());
            assertEquals(1L, panes.get(0).value());
            assertEquals(9_999, f.watermark());
        }
    }

    @Test
    void rule4_theOnTimePaneFiresExactlyWhenTheWatermarkReachesEndMinusOne() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            f.pipe("a", 3_000);
            f.pipe("b", 9_999);
            assertEquals(9_998, f.watermark());
            assertTrue(f.panes().isEmpty(), "W = end - 2: not yet");
            f.pipe("b", 10_000);
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(2, panes.size(), "W = end - 1: fires");
            for (OutputRecord<Windowed<String>, Long> p : panes) {
                assertEquals(new PaneInfo(PaneInfo.Timing.ON_TIME, 0, true), pane(p));
                assertEquals(WINDOW - 1, p.timestamp(), "a pane is stamped with its window's last instant");
            }
        }
    }

    @Test
    void rule4_aWindowCoversStartInclusiveToEndExclusive() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            f.pipe("a", 0);
            f.pipe("a", 9_999);
            f.pipe("a", 10_000);
            f.driver.endOfInput();
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(
                    List.of(new Window(0, 10_000), new Window(10_000, 20_000)),
                    panes.stream().map(p -> p.key().window()).toList());
            assertEquals(
                    List.of(2L, 1L), panes.stream().map(OutputRecord::value).toList());
        }
    }

    @Test
    void rule5_aRecordIsLateEvenIfItsWindowHoldsNoDataAndItsFirstPaneIsLate() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 20_000)) {
            f.pipe("b", 25_000);
            f.pipe("a", 4_000);
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(1, panes.size());
            assertEquals("a", panes.get(0).key().key());
            assertEquals(
                    new PaneInfo(PaneInfo.Timing.LATE, 0, false),
                    pane(panes.get(0)),
                    "no on-time pane for a window without data in time; the first pane is late");
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_ADDED));
        }
    }

    @Test
    void rule5_aLateRecordWithinAllowedLatenessIsAddedAndEmitsALatePane() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 15_000)) {
            f.pipe("a", 1_000);
            f.pipe("a", 12_000);
            assertEquals(
                    new PaneInfo(PaneInfo.Timing.ON_TIME, 0, false),
                    pane(f.panes().get(0)),
                    "not final: late panes may follow for 15 s");
            f.pipe("a", 2_000);
            f.pipe("a", 3_000);
            List<OutputRecord<Windowed<String>, Long>> late = f.panes();
            assertEquals(List.of(2L, 3L), late.stream().map(OutputRecord::value).toList(), "accumulating values");
            assertEquals(
                    List.of(new PaneInfo(PaneInfo.Timing.LATE, 1, false), new PaneInfo(PaneInfo.Timing.LATE, 2, false)),
                    late.stream().map(EventTimeContractTest::pane).toList());
            assertEquals(2, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_ADDED));
        }
    }

    @Test
    void rule5_atEndPlusAllowedLatenessTheStateIsPurgedAndLaterRecordsAreDroppedCountedAndSideOutput() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 15_000)) {
            f.pipe("a", 1_000);
            f.pipe("a", 24_998);
            assertEquals(
                    1,
                    f.driver.windowStore("counts", Serdes.String(), Serdes.Long()).stream()
                            .filter(e -> e.window().start() == 0)
                            .count(),
                    "W = 24 997 < end - 1 + L = 24 999: the window is kept");
            f.pipe("a", 2_000);
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_ADDED));
            f.pipe("a", 25_000);
            assertEquals(24_999, f.watermark());
            assertTrue(
                    f.driver.windowStore("counts", Serdes.String(), Serdes.Long()).stream()
                            .noneMatch(e -> e.window().start() == 0),
                    "W = end - 1 + L: purged");
            f.counts.readAll();
            f.pipe("a", 3_000);
            assertTrue(f.panes().isEmpty(), "a dropped record makes no pane");
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED));
            List<OutputRecord<String, String>> late = f.late.readAll();
            assertEquals(1, late.size());
            OutputRecord<String, String> r = late.get(0);
            assertEquals("a", r.key());
            assertEquals("v", r.value(), "the original bytes");
            assertEquals("LATE", r.header(LateRecord.REASON_HEADER));
            assertEquals("0", r.header(LateRecord.WINDOW_START_HEADER));
            assertEquals("10000", r.header(LateRecord.WINDOW_END_HEADER));
            assertEquals("24999", r.header(LateRecord.WATERMARK_HEADER));
            assertEquals("3000", r.header(LateRecord.EVENT_TIME_HEADER));
            assertEquals("events", r.header(LateRecord.SOURCE_TOPIC_HEADER));
            assertEquals("0", r.header(LateRecord.SOURCE_PARTITION_HEADER));
            assertEquals("4", r.header(LateRecord.SOURCE_OFFSET_HEADER));
            assertEquals(3_000, r.timestamp());
        }
    }

    @Test
    void rule5_withoutAllowedLatenessEveryLateRecordIsDropped() {
        try (WindowedCountFixture f =
                WindowedCountFixture.of(WatermarkStrategy.forMonotonousTimestamps(), Duration.ZERO, false, 1)) {
            f.pipe("a", 1_000);
            f.pipe("a", 10_000);
            f.pipe("a", 2_000);
            assertEquals(1, f.panes().size());
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED));
            assertEquals(0, f.driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_ADDED));
        }
    }

    @Test
    void rule6_atTheEndOfABoundedInputTheWatermarkJumpsToInfinityAndEveryWindowFires() {
        try (WindowedCountFixture f = WindowedCountFixture.of(5_000, 60_000)) {
            f.pipe("a", 1_000);
            f.pipe("b", 12_000);
            assertTrue(f.counts.isEmpty(), "W = 6 999: nothing fired yet");
            f.driver.endOfInput();
            assertEquals(Long.MAX_VALUE, f.watermark());
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(2, panes.size());
            for (OutputRecord<Windowed<String>, Long> p : panes) {
                assertEquals(new PaneInfo(PaneInfo.Timing.ON_TIME, 0, true), pane(p), "final: nothing can follow");
            }
            assertEquals(0, f.driver.metrics().get("counts", WeirMetrics.OPEN_WINDOWS), "and all state is purged");
        }
    }

    @Test
    void rule5_aHugeAllowedLatenessNeverWrapsAroundIntoPurgingEverything() {
        // The watermark is negative at first (delay 2 s > first event time): W - L must not wrap.
        try (WindowedCountFixture f = WindowedCountFixture.of(2_000, Long.MAX_VALUE)) {
            f.pipe("a", 0);
            f.pipe("a", 1_000);
            f.driver.endOfInput();
            List<OutputRecord<Windowed<String>, Long>> panes = f.panes();
            assertEquals(1, panes.size());
            assertEquals(2L, panes.get(0).value());
            assertEquals(new PaneInfo(PaneInfo.Timing.ON_TIME, 0, true), pane(panes.get(0)));
            assertEquals(0, f.driver.metrics().get("counts", WeirMetrics.OPEN_WINDOWS));
        }
    }

    /** in -> mapValues (throws on "boom") -> out, beside a sink that refuses values over 10 bytes. */
    private static TestDriver refusing(ProcessingErrorHandler processing, ProductionErrorHandler production) {
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(processing);
        EventStream<String, String> in = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        in.mapValues(v -> {
                    if (v.equals("boom")) {
                        throw new IllegalArgumentException("refused");
                    }
                    return v;
                })
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        in.to(
                "short",
                Produced.with(
                                Serdes.String(),
                                org.apache.kafka.common.serialization.Serdes.serdeFrom(
                                        (topic, v) -> {
                                            if (v.length() > 10) {
                                                throw new IllegalArgumentException("too long");
                                            }
                                            return v.getBytes(StandardCharsets.UTF_8);
                                        },
                                        (topic, bytes) -> new String(bytes, StandardCharsets.UTF_8)))
                        .withErrorHandler(production));
        return new TestDriver(builder.build());
    }

    @Test
    void rule1_aRecordAProcessingErrorHandlerSkipsOrDeadLettersNeverAdvancesTheWatermark() {
        for (ProcessingErrorHandler handler :
                List.of(ProcessingErrorHandler.logAndContinue(), ProcessingErrorHandler.deadLetterTo("dlq"))) {
            try (TestDriver driver = refusing(handler, ProductionErrorHandler.fail())) {
                TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
                in.pipe("a", "ok", 1_000);
                in.pipe("a", "boom", Long.MAX_VALUE - 1);
                assertEquals(999, driver.watermark("in", 0), handler + ": the refused record left the watermark");
                in.pipe("a", "ok", 2_000);
                assertEquals(1_999, driver.watermark("in", 0), "and the next record moves it as before");
            }
        }
    }

    @Test
    void rule1_aRecordAProductionErrorHandlerSkipsNeverAdvancesTheWatermark() {
        try (TestDriver driver = refusing(ProcessingErrorHandler.fail(), ProductionErrorHandler.logAndContinue())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("a", "ok", 1_000);
            in.pipe("a", "far too long", 500_000);
            assertEquals(999, driver.watermark("in", 0));
            assertEquals(
                    List.of("ok", "far too long"),
                    driver.output("out", Serdes.String(), Serdes.String()).readValues(),
                    "its other outputs are still written: only its event time is not trusted");
        }
    }
}
