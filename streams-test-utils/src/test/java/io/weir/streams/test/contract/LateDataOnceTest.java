package io.weir.streams.test.contract;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A late record goes to the side output once, and only when every window it belongs to refused it;
 * without a side output, a record nothing kept is logged at WARN, rate-limited.
 */
class LateDataOnceTest {

    /** Hopping windows of 30 s every 10 s (a record is in three), no delay, optional side output "late". */
    private static TestDriver hopping(boolean sideOutput) {
        StreamsBuilder builder = new StreamsBuilder();
        var windowed = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(HoppingWindows.of(Duration.ofSeconds(30), Duration.ofSeconds(10)));
        if (sideOutput) {
            windowed = windowed.lateRecordsTo("late");
        }
        windowed.count(Materialized.as("counts"))
                .toStream()
                .to("out", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return new TestDriver(builder.build());
    }

    @Test
    void aRecordEveryWindowRefusedGoesToTheSideOutputOnceNamingEachWindow() {
        try (TestDriver driver = hopping(true)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("k", "a", 100_000);
            in.pipe("k", "late", 15_000);
            List<OutputRecord<String, String>> late =
                    driver.output("late", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, late.size());
            assertEquals(
                    List.of(new Window(-10_000, 20_000), new Window(0, 30_000), new Window(10_000, 40_000)),
                    LateRecord.refusedWindows(late.get(0).headers()));
            assertEquals(3, driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED), "per window");
            assertEquals(1, driver.metrics().get("counts", WeirMetrics.SIDE_OUTPUT_RECORDS), "per record");
        }
    }

    @Test
    void aRecordOneOfItsWindowsTookIsNotSideOutputButTheRefusingWindowsCountIt() {
        try (TestDriver driver = hopping(true)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("k", "a", 25_000);
            // W = 24 999: of the record's windows only [-10 s, 20 s) has closed; [0, 30 s) and [10 s, 40 s) take it.
            in.pipe("k", "b", 19_000);
            assertTrue(driver.output("late", Serdes.String(), Serdes.String()).isEmpty());
            assertEquals(1, driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED));
            assertEquals(0, driver.metrics().get("counts", WeirMetrics.SIDE_OUTPUT_RECORDS));
        }
    }

    /** The WARN lines {@code run} makes the drop warnings log. */
    private static List<String> dropWarnings(Runnable run) {
        Logger logger = (Logger) LoggerFactory.getLogger("io.weir.streams.internals.operator.DropWarning");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            run.run();
        } finally {
            logger.detachAppender(appender);
        }
        return appender.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aDroppedRecordIsLoggedOnceThenRateLimitedWithItsCounts() {
        try (TestDriver driver = hopping(false)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            List<String> lines = dropWarnings(() -> {
                in.pipe("k", "a", 100_000);
                in.pipe("k", "late", 15_000);
                in.pipe("k", "late", 16_000);
                in.pipe(null, "no key", 100_000);
            });
            assertEquals(2, lines.size(), "one line per kind of drop within the interval: " + lines);
            assertTrue(
                    lines.get(0).contains("'counts' dropped 1 late records")
                            && lines.get(0).contains("in-0@1")
                            && !lines.get(0).contains("late,"),
                    lines.get(0));
            assertTrue(lines.get(1).contains("dropped 1 records with a null key"), lines.get(1));
            assertEquals(2, driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED) / 3);
            assertEquals(1, driver.metrics().get("counts", WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        }
    }

    @Test
    void aRecordBeyondTheFutureSkewWithoutASideOutputIsLogged() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withMaxFutureSkew(Duration.ofMinutes(1))))
                .groupByKey()
                .windowedBy(HoppingWindows.of(Duration.ofSeconds(30), Duration.ofSeconds(10)))
                .count(Materialized.as("counts"))
                .toStream()
                .to("out", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            List<String> lines = dropWarnings(() -> {
                in.pipe("k", "now", 1_000);
                in.pipe("k", "far ahead", 3_600_000);
            });
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(
                    lines.get(0).contains("'counts' dropped 1 records beyond the maximum future skew")
                            && lines.get(0).contains("in-0@1"),
                    lines.get(0));
            assertEquals(1, driver.metrics().get("counts", WeirMetrics.FUTURE_RECORDS_DROPPED));
        }
    }
}
