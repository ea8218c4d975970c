package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.ProductionError;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TestDriver's defaults do not trap a test: its processing clock starts at the first record, so a
 * maximum future skew works without set-up, and it refuses records Kafka's producer would refuse.
 */
class TestDriverDefaultsTest {

    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    /** clicks (future skew 10 min) counted per minute into "counts". */
    private static TestDriver counting(TestDriverConfig config) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "clicks",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withMaxFutureSkew(Duration.ofMinutes(10))))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                .count(Materialized.as("per-minute"))
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return new TestDriver(builder.build(), config);
    }

    @Test
    void theClockStartsAtTheFirstRecordsEventTime() {
        try (TestDriver driver = counting(TestDriverConfig.defaults())) {
            assertEquals(0, driver.processingTime(), "the epoch until the clock starts");
            driver.input("clicks", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("u", "c").at(NOON));
            assertEquals(NOON.toEpochMilli(), driver.processingTime());
        }
    }

    @Test
    void theClockStartsAtTheFirstRecordsArrivalTimeWhenGiven() {
        try (TestDriver driver = counting(TestDriverConfig.defaults())) {
            driver.input("clicks", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("u", "c").at(NOON).arrivingAt(NOON.plusSeconds(30)));
            assertEquals(NOON.plusSeconds(30).toEpochMilli(), driver.processingTime());
        }
    }

    @Test
    void aFutureSkewLimitJudgesRecordsFromWhereTheDataStarts() {
        try (TestDriver driver = counting(TestDriverConfig.defaults())) {
            TestInputTopic<String, String> clicks = driver.input("clicks", Serdes.String(), Serdes.String());
            clicks.pipe(TestRecord.of("u", "c").at(NOON));
            clicks.pipe(TestRecord.of("u", "c").at(NOON.plusSeconds(5 * 60)));
            clicks.pipe(TestRecord.of("u", "c").at(NOON.plusSeconds(60 * 60)));
            driver.endOfInput();
            assertEquals(
                    List.of(1L, 1L),
                    driver.output("counts", WindowedSerdes.string(), Serdes.Long())
                            .readValues(),
                    "realistic times are accepted; the record an hour ahead of the clock is not");
            assertEquals(1, driver.metrics().total(WeirMetrics.FUTURE_RECORDS_DROPPED));
        }
    }

    @Test
    void anExplicitStartTimeStillWins() {
        try (TestDriver driver = counting(TestDriverConfig.defaults().withStartTime(Instant.EPOCH))) {
            driver.input("clicks", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("u", "c").at(NOON));
            assertEquals(0, driver.processingTime());
            assertEquals(1, driver.metrics().total(WeirMetrics.FUTURE_RECORDS_DROPPED), "2026 is far ahead of 1970");
        }
    }

    @Test
    void aPipedRecordLargerThanTheProducerAcceptsIsRefused() {
        try (TestDriver driver = counting(TestDriverConfig.defaults())) {
            TestInputTopic<String, String> clicks = driver.input("clicks", Serdes.String(), Serdes.String());
            RecordTooLargeException e = assertThrows(
                    RecordTooLargeException.class, () -> clicks.pipe("u", "x".repeat(5 * 1024 * 1024), 1_000));
            assertTrue(
                    e.getMessage().contains("'clicks'") && e.getMessage().contains("max.request.size"), e.getMessage());
            clicks.pipe("u", "x".repeat(1000 * 1024), 1_000);
        }
    }

    @Test
    void anOutputLargerThanTheLimitGoesToTheSinksHandler() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v.repeat(100))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver =
                new TestDriver(builder.build(), TestDriverConfig.defaults().withMaxRecordBytes(5_000))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("k", "x");
            ProductionError e = assertThrows(ProductionError.class, () -> in.pipe("k", "y".repeat(100)));
            assertEquals(ProductionError.Reason.RECORD_TOO_LARGE, e.reason());
            assertEquals(
                    List.of("x".repeat(100)),
                    driver.output("out", Serdes.String(), Serdes.String()).readValues());
        }
        builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v.repeat(100))
                .to(
                        "out",
                        Produced.with(Serdes.String(), Serdes.String())
                                .withErrorHandler(ProductionErrorHandler.logAndContinue()));
        try (TestDriver driver =
                new TestDriver(builder.build(), TestDriverConfig.defaults().withMaxRecordBytes(5_000))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("k", "y".repeat(100));
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PRODUCTION_SKIPPED));
        }
    }
}
