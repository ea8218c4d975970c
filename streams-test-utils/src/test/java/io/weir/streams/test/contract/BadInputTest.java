package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.RecordError;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad settings fail at build time naming the parameter; bad records get a counted, explicit outcome. */
class BadInputTest {

    record Payment(String card, long amount, long paidAt) {}

    private static void assertRejects(String parameter, Runnable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().startsWith(parameter + " "), e.getMessage());
    }

    @Test
    void invalidDurationsFailAtBuildTimeNamingTheParameter() {
        assertRejects("delay", () -> WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(-1)));
        assertRejects(
                "idleness", () -> WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ZERO));
        assertRejects(
                "maxFutureSkew",
                () -> WatermarkStrategy.forMonotonousTimestamps().withMaxFutureSkew(Duration.ofMillis(-5)));
        assertRejects("size", () -> TumblingWindows.of(Duration.ZERO));
        assertRejects(
                "allowedLateness",
                () -> TumblingWindows.of(Duration.ofSeconds(1)).withAllowedLateness(Duration.ofSeconds(-1)));
        assertRejects("advance", () -> HoppingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(11)));
        assertRejects("advance", () -> HoppingWindows.of(Duration.ofSeconds(10), Duration.ZERO));
        assertRejects("timeDifference", () -> SlidingWindows.ofTimeDifference(Duration.ofMillis(-1)));
    }

    @Test
    void anUnknownSerdeAfterAMapFailsAtBuildTimeNamingTheStoreOrTopic() {
        StreamsBuilder builder = new StreamsBuilder();
        var mapped = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(String::length);
        IllegalStateException sink = assertThrows(IllegalStateException.class, () -> mapped.to("out"));
        assertTrue(sink.getMessage().contains("to(\"out\")"), sink.getMessage());
        IllegalStateException store = assertThrows(
                IllegalStateException.class,
                () -> mapped.groupByKey()
                        .windowedBy(TumblingWindows.of(Duration.ofSeconds(1)))
                        .reduce(Integer::sum, Materialized.as("sums")));
        assertTrue(store.getMessage().contains("store 'sums'"), store.getMessage());
    }

    @Test
    void aNullKeyInAKeyedAggregationIsCountedAndSkipped() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            f.events.pipe(TestRecord.of((String) null, "v").at(1_000));
            f.pipe("a", 1_000);
            f.driver.endOfInput();
            assertEquals(1, f.panes().size());
            assertEquals(1, f.driver.metrics().get("counts", WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        }
    }

    private static TestDriver jsonPayments(RecordErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), JsonSerde.of(Payment.class))
                                .withTimestamps(Payment::paidAt)
                                .withErrorHandler(handler))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                .count(Materialized.as("per-card"))
                .toStream()
                .to("counts");
        return new TestDriver(builder.build());
    }

    @Test
    void anUndeserializableValueFailsWithTheRecordsCoordinatesByDefault() {
        try (TestDriver driver = jsonPayments(RecordErrorHandler.fail())) {
            TestInputTopic<String, String> raw = driver.input("payments", Serdes.String(), Serdes.String());
            raw.pipe("card-1", "{\"card\":\"card-1\",\"amount\":5,\"paidAt\":1000}");
            RecordError e = assertThrows(RecordError.class, () -> raw.pipe("card-1", "{not json"));
            assertEquals(RecordError.Reason.VALUE_DESERIALIZATION, e.reason());
            assertTrue(e.getMessage().contains("payments-0@1"), e.getMessage());
            assertTrue(!e.getMessage().contains("{not json"), "the payload is not in the message: " + e.getMessage());
        }
    }

    @Test
    void anUndeserializableValueIsLoggedCountedAndSkippedWhenAskedTo() {
        try (TestDriver driver = jsonPayments(RecordErrorHandler.logAndContinue())) {
            TestInputTopic<String, String> raw = driver.input("payments", Serdes.String(), Serdes.String());
            raw.pipe("card-1", "{not json");
            raw.pipe("card-1", "{\"card\":\"card-1\",\"amount\":5,\"paidAt\":1000}");
            driver.endOfInput();
            assertEquals(
                    1,
                    driver.output("counts", WindowedSerdes.string(), Serdes.Long())
                            .readAll()
                            .size());
            assertEquals(1, driver.metrics().get("source:payments", WeirMetrics.RECORDS_SKIPPED));
            assertEquals(2, driver.metrics().get("source:payments", WeirMetrics.RECORDS_CONSUMED));
        }
    }

    @Test
    void aNegativeEventTimeIsRejectedWithTheRecordsCoordinates() {
        try (TestDriver driver = jsonPayments(RecordErrorHandler.fail())) {
            var payments = driver.input("payments", Serdes.String(), JsonSerde.of(Payment.class));
            RecordError e =
                    assertThrows(RecordError.class, () -> payments.pipe("card-1", new Payment("card-1", 5, -20)));
            assertEquals(RecordError.Reason.INVALID_EVENT_TIME, e.reason());
            assertTrue(e.getMessage().contains("negative event time -20"), e.getMessage());
            assertTrue(e.getMessage().contains("payments-0@0"), e.getMessage());
        }
        try (TestDriver driver = jsonPayments(RecordErrorHandler.logAndContinue())) {
            driver.input("payments", Serdes.String(), JsonSerde.of(Payment.class))
                    .pipe("card-1", new Payment("card-1", 5, -20));
            assertEquals(1, driver.metrics().get("source:payments", WeirMetrics.RECORDS_SKIPPED));
        }
    }

    @Test
    void theTestDriverNamesUnknownTopicsAndWrongSerdes() {
        try (WindowedCountFixture f = WindowedCountFixture.of(0, 0)) {
            IllegalArgumentException in = assertThrows(
                    IllegalArgumentException.class, () -> f.driver.input("evnets", Serdes.String(), Serdes.String()));
            assertTrue(
                    in.getMessage().contains("'evnets' is not an input topic")
                            && in.getMessage().contains("[events]"),
                    in.getMessage());
            IllegalArgumentException out = assertThrows(
                    IllegalArgumentException.class,
                    () -> f.driver.output("count-out", Serdes.String(), Serdes.String()));
            assertTrue(out.getMessage().contains("counts-out"), out.getMessage());
            f.pipe("a", 1_000);
            f.driver.endOfInput();
            var wrong = f.driver.output("counts-out", WindowedSerdes.string(), Serdes.Integer());
            IllegalStateException e = assertThrows(IllegalStateException.class, wrong::readAll);
            assertTrue(
                    e.getMessage().contains("Cannot read the value of record 0 of topic 'counts-out'"), e.getMessage());
        }
    }

    @Test
    void theJsonSerdeReadsRecordsAndKeepsPayloadsOutOfErrors() {
        JsonSerde<Payment> serde = JsonSerde.of(Payment.class);
        Payment p = new Payment("card-9", 250, 42);
        assertEquals(p, serde.deserializer().deserialize("t", serde.serializer().serialize("t", p)));
        Exception e = assertThrows(
                Exception.class,
                () -> serde.deserializer()
                        .deserialize("t", "{\"card\": secret-value".getBytes(StandardCharsets.UTF_8)));
        assertTrue(!e.getMessage().contains("secret-value"), e.getMessage());
    }
}
