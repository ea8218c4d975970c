package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalWindows;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.Windows;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.RecordError;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Time at both ends of a {@code long}: no arithmetic wraps, so no record near the end of time (or a
 * duration of centuries) throws, loses state or fires early. The rules: event times run from 0 to
 * {@code Long.MAX_VALUE - 1} ({@code Long.MAX_VALUE} is the end of input, refused as an event time); the
 * last window of each kind ends at {@code Long.MAX_VALUE}, shorter than the others, and so fires and
 * closes only at the end of input; durations longer than {@code Long.MAX_VALUE} ms count as that.
 */
class EndOfTimeContractTest {

    private static final long MAX = Long.MAX_VALUE;
    /** Processing time of every test: event times near the end of time are far beyond any future skew. */
    private static final long NOW = 1_000_000;

    private static final Consumed<String, String> TRUSTING = Consumed.with(Serdes.String(), Serdes.String())
            .withWatermarks(WatermarkStrategy.forMonotonousTimestamps().withoutMaxFutureSkew());

    /** Counts per window of {@code windows} into "counts" (after {@code settings}). */
    private static TestDriver counting(
            Windows windows, UnaryOperator<io.weir.streams.dsl.WindowedStream<String, String>> settings) {
        StreamsBuilder builder = new StreamsBuilder();
        settings.apply(builder.stream("in", TRUSTING).groupByKey().windowedBy(windows))
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return new TestDriver(builder.build());
    }

    private static TestDriver counting(Windows windows) {
        return counting(windows, UnaryOperator.identity());
    }

    private static void pipe(TestDriver driver, String key, long t) {
        driver.input("in", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(key, "v").at(t).arrivingAt(NOW));
    }

    private static List<OutputRecord<Windowed<String>, Long>> counts(TestDriver driver) {
        return driver.output("counts", WindowedSerdes.string(), Serdes.Long()).readAll();
    }

    @Test
    void anEventTimeOfLongMaxValueIsRefusedAsTheEndOfInput() {
        try (TestDriver driver = counting(TumblingWindows.of(Duration.ofSeconds(10)))) {
            RecordError e = assertThrows(RecordError.class, () -> pipe(driver, "a", MAX));
            assertEquals(RecordError.Reason.INVALID_EVENT_TIME, e.reason());
            assertTrue(e.getMessage().contains("end of input"), e.getMessage());
        }
    }

    @Test
    void theLastTumblingWindowEndsAtLongMaxValueAndFiresOnlyAtTheEndOfInput() {
        try (TestDriver driver = counting(TumblingWindows.of(Duration.ofMillis(10)))) {
            pipe(driver, "a", MAX - 1);
            pipe(driver, "a", MAX - 7);
            assertTrue(counts(driver).isEmpty(), "W = MAX - 2 has not passed the window's last instant, MAX - 1");
            driver.endOfInput();
            List<OutputRecord<Windowed<String>, Long>> counts = counts(driver);
            assertEquals(1, counts.size());
            assertEquals(new Window(MAX - 7, MAX), counts.get(0).key().window(), "MAX % 10 == 7: 7 ms long");
            assertEquals(2L, counts.get(0).value());
            assertEquals(
                    PaneInfo.Timing.ON_TIME, counts.get(0).pane().orElseThrow().timing());
        }
    }

    @Test
    void hoppingWindowsNearTheEndOfTimeAreClampedAndAllFire() {
        try (TestDriver driver = counting(HoppingWindows.of(Duration.ofMillis(10), Duration.ofMillis(5)))) {
            pipe(driver, "a", MAX - 6);
            driver.endOfInput();
            List<Window> windows =
                    counts(driver).stream().map(r -> r.key().window()).toList();
            assertEquals(
                    // MAX - 7 is a multiple of 5: the record is in [MAX - 12, MAX - 2) and the last, [MAX - 7, MAX).
                    List.of(new Window(MAX - 12, MAX - 2), new Window(MAX - 7, MAX)),
                    windows.stream()
                            .sorted((x, y) -> Long.compare(x.start(), y.start()))
                            .toList());
        }
    }

    @Test
    void aHoppingWindowThatPutsARecordInTooManyWindowsIsRefusedAtBuildTime() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> HoppingWindows.of(Duration.ofDays(1), Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("86400000 windows"), e.getMessage());
        assertDoesNotThrow(() -> HoppingWindows.of(ChronoUnit.FOREVER.getDuration(), ChronoUnit.FOREVER.getDuration()));
    }

    @Test
    void aSessionNearTheEndOfTimeKeepsItsStateUntilItCloses() {
        // Sessions there end at MAX (clamped): the watermark's step to MAX - 2 closes [MAX-13, MAX-3) only.
        try (TestDriver driver = counting(SessionWindows.withGap(Duration.ofMillis(10)))) {
            pipe(driver, "a", MAX - 5);
            pipe(driver, "b", MAX - 13);
            pipe(driver, "c", MAX - 1);
            pipe(driver, "a", MAX - 3);
            driver.endOfInput();
            List<OutputRecord<Windowed<String>, Long>> a = counts(driver).stream()
                    .filter(r -> r.key().key().equals("a"))
                    .toList();
            assertEquals(1, a.size(), a.toString());
            assertEquals(new Window(MAX - 5, MAX), a.get(0).key().window());
            assertEquals(2L, a.get(0).value(), "both of a's records in one session, nothing purged early");
        }
    }

    @Test
    void aGlobalWindowFiresItsOnTimePaneOnlyAtTheEndOfInput() {
        try (TestDriver driver = counting(GlobalWindows.create(), w -> w.withTrigger(Trigger.afterCount(100)))) {
            pipe(driver, "a", 5);
            pipe(driver, "a", MAX - 1);
            assertTrue(counts(driver).isEmpty(), "W = MAX - 2 is not the end of input");
            driver.endOfInput();
            List<OutputRecord<Windowed<String>, Long>> counts = counts(driver);
            assertEquals(1, counts.size());
            assertEquals(2L, counts.get(0).value());
            assertEquals(MAX - 1, counts.get(0).timestamp(), "stamped with its largest event time");
        }
    }

    @Test
    void slidingWindowsNearTheEndOfTimeCountLikeAnywhereElse() {
        try (TestDriver low = counting(SlidingWindows.ofTimeDifference(Duration.ofMillis(10)));
                TestDriver high = counting(SlidingWindows.ofTimeDifference(Duration.ofMillis(10)))) {
            for (long t : new long[] {985, 989}) {
                pipe(low, "a", t);
            }
            long shift = MAX - 1 - 989 - 8;
            for (long t : new long[] {985, 989}) {
                pipe(high, "a", t + shift);
            }
            low.endOfInput();
            high.endOfInput();
            List<String> expected = counts(low).stream()
                    .map(r -> (r.key().window().start() + shift) + ".."
                            + (r.key().window().end() + shift) + "=" + r.value())
                    .sorted()
                    .toList();
            List<String> actual = counts(high).stream()
                    .map(r -> r.key().window().start() + ".." + r.key().window().end() + "=" + r.value())
                    .sorted()
                    .toList();
            assertEquals(expected, actual, "the same windows and counts, shifted (none reaches MAX here)");
        }
    }

    @Test
    void aSlidingWindowAtTheEndOfTimeIsStampedWithinItself() {
        try (TestDriver driver = counting(SlidingWindows.ofTimeDifference(Duration.ofMillis(10)))) {
            pipe(driver, "a", MAX - 11);
            pipe(driver, "a", MAX - 12);
            driver.endOfInput();
            for (OutputRecord<Windowed<String>, Long> r : counts(driver)) {
                Window w = r.key().window();
                assertTrue(w.start() <= r.timestamp() && r.timestamp() < w.end(), r.toString());
            }
        }
    }

    @Test
    void durationsLongerThanLongMaxValueMillisecondsCountAsThat() {
        Duration forever = ChronoUnit.FOREVER.getDuration();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(forever)
                                        .withIdleness(forever)
                                        .withMaxFutureSkew(forever)))
                .groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifference(forever).withAllowedLateness(forever))
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            pipe(driver, "a", 1);
            pipe(driver, "a", MAX - 1);
            driver.endOfInput();
            assertTrue(
                    counts(driver).stream().anyMatch(r -> r.value() == 2L),
                    counts(driver).toString());
        }
    }

    @Test
    void theTestDriversClockSaturatesInsteadOfStandingStill() {
        try (TestDriver driver = counting(TumblingWindows.of(Duration.ofSeconds(1)))) {
            driver.input("in", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("a", "v").at(MAX - 100));
            driver.advanceTime(Duration.ofSeconds(1));
            assertEquals(MAX, driver.processingTime());
            assertThrows(IllegalArgumentException.class, () -> driver.advanceTime(Duration.ofMillis(-1)));
        }
    }

    @Test
    void aStreamStreamJoinNearTheEndOfTimeJoinsAndPadsAtTheEndOfInput() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> left = builder.stream("left", TRUSTING);
        EventStream<String, String> right = builder.stream("right", TRUSTING);
        left.leftJoin(right, (l, r) -> l + "+" + r, JoinWindows.of(Duration.ofDays(365 * 1000L)))
                .to("joined", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> l = driver.input("left", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> r = driver.input("right", Serdes.String(), Serdes.String());
            l.pipe(TestRecord.of("k", "L1").at(MAX - 2).arrivingAt(NOW));
            r.pipe(TestRecord.of("k", "R1").at(MAX - 1).arrivingAt(NOW));
            l.pipe(TestRecord.of("j", "L2").at(MAX - 1).arrivingAt(NOW));
            TestOutputTopic<String, String> joined = driver.output("joined", Serdes.String(), Serdes.String());
            assertEquals(List.of("L1+R1"), joined.readValues());
            driver.endOfInput();
            assertEquals(List.of("L2+null"), joined.readValues(), "the unmatched record is padded at the end");
        }
    }

    @Test
    void deduplicationNearTheEndOfTimeDropsRepeatsWithinItsInterval() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", TRUSTING)
                .deduplicate((k, v) -> v, Duration.ofDays(365 * 1000L), Deduplicated.with(Serdes.String()))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("k", "id-1").at(MAX - 3).arrivingAt(NOW));
            in.pipe(TestRecord.of("k", "id-2").at(MAX - 2).arrivingAt(NOW));
            in.pipe(TestRecord.of("k", "id-1").at(MAX - 1).arrivingAt(NOW));
            assertEquals(
                    List.of("id-1", "id-2"),
                    driver.output("out", Serdes.String(), Serdes.String()).readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.DUPLICATES_DROPPED));
        }
    }

    @Test
    void aTimeToLiveNearTheEndOfTimeExpiresNothingBeforeTheEndOfInput() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", TRUSTING)
                .groupByKey()
                .count(Materialized.<String, Long>as("counts").withTimeToLive(Duration.ofDays(365 * 1000L)))
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("a", "v").at(5).arrivingAt(NOW));
            in.pipe(TestRecord.of("b", "v").at(MAX - 1).arrivingAt(NOW));
            driver.commit();
            assertEquals(
                    java.util.Map.of("b", 1L),
                    driver.table("counts", Serdes.String(), Serdes.Long()),
                    "a, not updated for more than the TTL of event time, expired; b did not");
        }
    }

    /** Forwards each record with event time t + 1 and sets an event-time timer at t + 10, saturating. */
    private static TestDriver timing(ProcessingErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(handler);
        builder.stream("in", TRUSTING)
                .groupByKey()
                .process(() -> new KeyedProcessor<String, String, String, String>() {
                    @Override
                    public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                        long t = ctx.eventTime();
                        ctx.registerTimer(TimeDomain.EVENT_TIME, t > MAX - 10 ? MAX - 1 : t + 10);
                        ctx.forward(key, value, t + 1);
                    }

                    @Override
                    public void onTimer(
                            long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
                        ctx.forward(ctx.currentKey(), "timer " + (MAX - time));
                    }
                })
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build());
    }

    @Test
    void aTimerAtTheLastInstantFiresAtTheEndOfInputAndAForwardToLongMaxValueGoesToTheHandler() {
        try (TestDriver driver = timing(ProcessingErrorHandler.fail())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("a", "v").at(MAX - 3).arrivingAt(NOW));
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            assertEquals(List.of("v"), out.readValues());
            driver.endOfInput();
            assertEquals(List.of("timer 1"), out.readValues());
        }
        try (TestDriver driver = timing(ProcessingErrorHandler.fail())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            ProcessingError e = assertThrows(
                    ProcessingError.class,
                    () -> in.pipe(TestRecord.of("a", "v").at(MAX - 1).arrivingAt(NOW)));
            assertTrue(
                    e.getCause().getMessage().contains("end of input"),
                    e.getCause().getMessage());
        }
    }
}
