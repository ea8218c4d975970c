package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.ProductionError;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A record its topic would refuse (its size, its timestamp against the broker's clock) is refused before
 * it is sent, so one record cannot poison the transaction the others ride in: an output goes to its sink's
 * production handler; a dead letter or a late-data record is fitted to the topic (restamped, cut) and
 * flagged, or dropped and counted when even that cannot make it fit. Never thrown out of a handler.
 */
class TopicLimitsContractTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final long HOUR = 3_600_000;
    /** Kafka 4's default: records more than an hour ahead of the broker's clock are refused. */
    private static final TestDriverConfig KAFKA_4 =
            TestDriverConfig.defaults().withTimestampLimits(Duration.ofMillis(Long.MAX_VALUE), Duration.ofHours(1));

    /** in (event time from the value, every one trusted) -> out, with {@code handler} at the sink. */
    private static TestDriver passing(ProductionErrorHandler handler, TestDriverConfig config) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withTimestamps(Long::parseLong)
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withoutMaxFutureSkew()))
                .to("out", Produced.with(Serdes.String(), Serdes.String()).withErrorHandler(handler));
        return new TestDriver(builder.build(), config);
    }

    private static void pipe(TestInputTopic<String, String> in, long eventTime) {
        in.pipe(TestRecord.of("k", Long.toString(eventTime)).at(NOW).arrivingAt(NOW));
    }

    @Test
    void anOutputWhoseTimestampTheTopicWouldRefuseFailsByDefaultNamingTheReason() {
        try (TestDriver driver = passing(ProductionErrorHandler.fail(), KAFKA_4)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            pipe(in, NOW + HOUR / 2);
            ProductionError e = assertThrows(ProductionError.class, () -> pipe(in, NOW + 2 * HOUR));
            assertEquals(ProductionError.Reason.TIMESTAMP_OUT_OF_RANGE, e.reason());
            assertTrue(e.getMessage().contains("message.timestamp.after.max.ms"), e.getMessage());
            assertEquals(
                    1,
                    driver.output("out", Serdes.String(), Serdes.String())
                            .readValues()
                            .size());
        }
    }

    @Test
    void anOutputWhoseTimestampTheTopicWouldRefuseIsSkippedAndCountedWhenTheHandlerSaysSo() {
        try (TestDriver driver = passing(ProductionErrorHandler.logAndContinue(), KAFKA_4)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            pipe(in, NOW + 2 * HOUR);
            pipe(in, NOW);
            assertEquals(
                    List.of(Long.toString(NOW)),
                    driver.output("out", Serdes.String(), Serdes.String()).readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PRODUCTION_SKIPPED));
            assertEquals(NOW - 1, driver.watermark("in", 0), "the skipped record left the watermark alone");
        }
    }

    @Test
    void aDeadLetterTheTopicWouldRefuseForItsTimestampIsRestampedAndFlagged() {
        try (TestDriver driver = passing(ProductionErrorHandler.deadLetterTo("dlq"), KAFKA_4)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            // The input's own Kafka timestamp is years ahead too: the dead letter would carry it.
            in.pipe(TestRecord.of("k", Long.toString(NOW + 2 * HOUR))
                    .at(NOW + 20 * 365 * 24 * HOUR)
                    .arrivingAt(NOW));
            List<OutputRecord<String, String>> letters =
                    driver.output("dlq", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, letters.size());
            OutputRecord<String, String> letter = letters.get(0);
            assertEquals("TIMESTAMP_OUT_OF_RANGE", letter.header(DeadLetterRecord.REASON_HEADER));
            assertEquals(Long.toString(NOW + 20 * 365 * 24 * HOUR), letter.header(DeadLetterRecord.RESTAMPED_HEADER));
            assertTrue(letter.timestamp() <= NOW + HOUR, "stamped with a time the topic accepts: " + letter);
            assertEquals(Long.toString(NOW + 2 * HOUR), letter.value(), "the input record as consumed");
        }
    }

    /** in -> mapValues that throws on every value -> out, its processing errors dead-lettered to "dlq". */
    private static TestDriver failing(int maxRecordBytes) {
        StreamsBuilder builder =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.deadLetterTo("dlq"));
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .<String>mapValues(v -> {
                    throw new IllegalStateException("refused");
                })
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withMaxRecordBytes(maxRecordBytes));
    }

    @Test
    void aDeadLetterLargerThanTheTopicAcceptsIsCutToFitAndFlagged() {
        try (TestDriver driver = failing(5_000)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            String value = "v".repeat(4_800);
            in.pipe("key", value);
            List<OutputRecord<String, String>> letters =
                    driver.output("dlq", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, letters.size(), "the dead letter's headers made it too large, and it was cut");
            OutputRecord<String, String> letter = letters.get(0);
            assertEquals("key=3;value=4800", letter.header(DeadLetterRecord.TRUNCATED_HEADER));
            assertEquals("key", letter.key(), "the key is kept whole; the value is cut first");
            assertTrue(value.startsWith(letter.value()) && letter.value().length() < 4_800, letter.value());
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void aDeadLetterWhoseHeadersAloneAreTooLargeIsDroppedAndCountedNotThrown() {
        try (TestDriver driver = failing(5_000)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            byte[] trace = "t".repeat(4_600).getBytes(StandardCharsets.UTF_8);
            in.pipe(TestRecord.of("key", "v").withHeader("trace", trace));
            in.pipe("key", "w");
            assertEquals(
                    1,
                    driver.output("dlq", Serdes.String(), Serdes.String())
                            .readAll()
                            .size());
            assertEquals(1, driver.metrics().total(WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED));
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void aLateRecordTheSideOutputTopicWouldRefuseForItsTimestampIsRestampedAndFlagged() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withMaxFutureSkew(Duration.ofHours(1))))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                .lateRecordsTo("late")
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), KAFKA_4)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("k", "v").at(NOW).arrivingAt(NOW));
            in.pipe(TestRecord.of("k", "v").at(NOW + 10 * 365 * 24 * HOUR).arrivingAt(NOW));
            List<OutputRecord<String, String>> late =
                    driver.output("late", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, late.size());
            assertEquals("FUTURE_TIMESTAMP", late.get(0).header(LateRecord.REASON_HEADER));
            assertEquals(Long.toString(NOW + 10 * 365 * 24 * HOUR), late.get(0).header(LateRecord.RESTAMPED_HEADER));
            assertTrue(late.get(0).timestamp() <= NOW + HOUR, late.get(0).toString());
            assertNull(late.get(0).header(LateRecord.TRUNCATED_HEADER));
        }
    }
}
