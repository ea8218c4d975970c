package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.errors.ProductionError;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.errors.RecordError;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records that cannot be read or produced get the outcome their handler decides — fail, skip and count,
 * or a dead-letter topic holding the original bytes and headers with the failure in headers — and the
 * other records go on untouched.
 */
class ErrorHandlingTest {

    record Payment(String card, long amount, long paidAt) {}

    private static final String GOOD = "{\"card\":\"card-1\",\"amount\":5,\"paidAt\":1000}";
    private static final String SOURCE = "source:payments";
    private static final String SINK = "sink:amounts";

    /** A String serde whose serializer refuses values containing "unserializable". */
    private static final Serde<String> PICKY = org.apache.kafka.common.serialization.Serdes.serdeFrom(
            new Serializer<>() {
                private final StringSerializer inner = new StringSerializer();

                @Override
                public byte[] serialize(String topic, String data) {
                    if (data.contains("unserializable")) {
                        throw new SerializationException("cannot write this one");
                    }
                    return inner.serialize(topic, data);
                }
            },
            new StringDeserializer());

    /** payments (JSON) -> amounts, written as text with the picky serializer; the sink's handler as given. */
    private static TestDriver payments(RecordErrorHandler readErrors, ProductionErrorHandler writeErrors) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), JsonSerde.of(Payment.class))
                                .withTimestamps(Payment::paidAt)
                                .withErrorHandler(readErrors))
                .mapValues(p -> p.card().equals("card-x") ? "unserializable" : Long.toString(p.amount()))
                .to("amounts", Produced.with(Serdes.String(), PICKY).withErrorHandler(writeErrors));
        return new TestDriver(builder.build());
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void anUnreadableRecordGoesToTheDeadLetterTopicAsConsumedWithTheFailureInHeaders() {
        try (TestDriver driver =
                payments(RecordErrorHandler.deadLetterTo("payments-dlq"), ProductionErrorHandler.fail())) {
            TestInputTopic<String, String> raw = driver.input("payments", Serdes.String(), Serdes.String());
            raw.pipe("card-1", GOOD);
            raw.pipe(TestRecord.of("card-1", "{not json")
                    .at(7_000)
                    .withHeader("trace", "t-42".getBytes(StandardCharsets.UTF_8)));
            raw.pipe("card-1", GOOD);

            assertEquals(
                    List.of("5", "5"),
                    driver.output("amounts", Serdes.String(), Serdes.String()).readValues());
            List<OutputRecord<byte[], byte[]>> dead = driver.output(
                            "payments-dlq", Serdes.ByteArray(), Serdes.ByteArray())
                    .readAll();
            assertEquals(1, dead.size());
            OutputRecord<byte[], byte[]> letter = dead.get(0);
            assertEquals("card-1", utf8(letter.key()));
            assertEquals("{not json", utf8(letter.value()), "the original bytes, untouched");
            assertEquals(7_000, letter.timestamp(), "the original timestamp");
            assertEquals("t-42", letter.header("trace"), "the original headers are kept");
            assertEquals("VALUE_DESERIALIZATION", letter.header(DeadLetterRecord.REASON_HEADER));
            assertTrue(
                    letter.header(DeadLetterRecord.EXCEPTION_HEADER).contains("Exception"),
                    letter.header(DeadLetterRecord.EXCEPTION_HEADER));
            assertTrue(
                    letter.header(DeadLetterRecord.MESSAGE_HEADER).contains("payments-0@1"),
                    letter.header(DeadLetterRecord.MESSAGE_HEADER));
            assertEquals("payments", letter.header(DeadLetterRecord.SOURCE_TOPIC_HEADER));
            assertEquals("0", letter.header(DeadLetterRecord.SOURCE_PARTITION_HEADER));
            assertEquals("1", letter.header(DeadLetterRecord.SOURCE_OFFSET_HEADER));
            assertEquals("7000", letter.header(DeadLetterRecord.SOURCE_TIMESTAMP_HEADER));
            assertNull(letter.header(DeadLetterRecord.SINK_TOPIC_HEADER), "not a production error");

            assertEquals(1, driver.metrics().get(SOURCE, WeirMetrics.RECORDS_DEAD_LETTERED));
            assertEquals(0, driver.metrics().get(SOURCE, WeirMetrics.RECORDS_SKIPPED));
            assertEquals(3, driver.metrics().get(SOURCE, WeirMetrics.RECORDS_CONSUMED));
        }
    }

    @Test
    void aHandlerDecidesPerRecord() {
        RecordErrorHandler handler = error -> error.reason() == RecordError.Reason.INVALID_EVENT_TIME
                ? ErrorDecision.CONTINUE
                : ErrorDecision.deadLetter("payments-dlq");
        try (TestDriver driver = payments(handler, ProductionErrorHandler.fail())) {
            TestInputTopic<String, String> raw = driver.input("payments", Serdes.String(), Serdes.String());
            raw.pipe("card-1", "{\"card\":\"card-1\",\"amount\":5,\"paidAt\":-3}");
            raw.pipe("card-1", "{not json");
            raw.pipe("card-1", GOOD);

            assertEquals(
                    List.of("5"),
                    driver.output("amounts", Serdes.String(), Serdes.String()).readValues());
            List<OutputRecord<String, String>> dead = driver.output("payments-dlq", Serdes.String(), Serdes.String())
                    .readAll();
            assertEquals(1, dead.size());
            assertEquals("{not json", dead.get(0).value());
            assertEquals(1, driver.metrics().get(SOURCE, WeirMetrics.RECORDS_SKIPPED));
            assertEquals(1, driver.metrics().get(SOURCE, WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void aHandlerThatDecidesNothingFailsNamingTheNode() {
        try (TestDriver driver = payments(error -> null, ProductionErrorHandler.fail())) {
            TestInputTopic<String, String> raw = driver.input("payments", Serdes.String(), Serdes.String());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> raw.pipe("card-1", "{not json"));
            assertTrue(e.getMessage().contains("source:payments returned no decision"), e.getMessage());
        }
    }

    @Test
    void aDeadLetterTopicMustBeNamedAtBuildTime() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RecordErrorHandler.deadLetterTo(" "));
        assertTrue(e.getMessage().startsWith("deadLetterTopic "), e.getMessage());
        assertThrows(NullPointerException.class, () -> ProductionErrorHandler.deadLetterTo(null));
    }

    @Test
    void aRecordThatDoesNotSerializeFailsNamingTheSinkTopicByDefault() {
        try (TestDriver driver = payments(RecordErrorHandler.fail(), ProductionErrorHandler.fail())) {
            var payments = driver.input("payments", Serdes.String(), JsonSerde.of(Payment.class));
            payments.pipe("card-1", new Payment("card-1", 5, 1_000));
            ProductionError e =
                    assertThrows(ProductionError.class, () -> payments.pipe("card-x", new Payment("card-x", 7, 2_000)));
            assertEquals(ProductionError.Reason.VALUE_SERIALIZATION, e.reason());
            assertEquals("amounts", e.sinkTopic());
            assertEquals(1, e.sourceOffset());
            assertTrue(
                    e.getMessage().contains("topic 'amounts'") && e.getMessage().contains("payments-0@1"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("unserializable"), "no payload in the message: " + e.getMessage());
            assertTrue(e.getCause() instanceof SerializationException);
        }
    }

    @Test
    void aRecordThatDoesNotSerializeIsCountedAndSkippedWhenAskedTo() {
        try (TestDriver driver = payments(RecordErrorHandler.fail(), ProductionErrorHandler.logAndContinue())) {
            var payments = driver.input("payments", Serdes.String(), JsonSerde.of(Payment.class));
            payments.pipe("card-1", new Payment("card-1", 5, 1_000));
            payments.pipe("card-x", new Payment("card-x", 7, 2_000));
            payments.pipe("card-2", new Payment("card-2", 9, 3_000));

            assertEquals(
                    List.of("5", "9"),
                    driver.output("amounts", Serdes.String(), Serdes.String()).readValues());
            assertEquals(1, driver.metrics().get(SINK, WeirMetrics.RECORDS_PRODUCTION_SKIPPED));
            assertEquals(0, driver.metrics().total(WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void aRecordThatDoesNotSerializeCanGoToADeadLetterTopicAsItsInputRecord() {
        try (TestDriver driver =
                payments(RecordErrorHandler.fail(), ProductionErrorHandler.deadLetterTo("amounts-dlq"))) {
            var payments = driver.input("payments", Serdes.String(), JsonSerde.of(Payment.class));
            payments.pipe("card-1", new Payment("card-1", 5, 1_000));
            payments.pipe(
                    TestRecord.of("card-x", new Payment("card-x", 7, 2_000)).withHeader("trace", new byte[] {1}));
            payments.pipe("card-2", new Payment("card-2", 9, 3_000));

            assertEquals(
                    List.of("5", "9"),
                    driver.output("amounts", Serdes.String(), Serdes.String()).readValues());
            List<OutputRecord<String, Payment>> dead = driver.output(
                            "amounts-dlq", Serdes.String(), JsonSerde.of(Payment.class))
                    .readAll();
            assertEquals(1, dead.size());
            OutputRecord<String, Payment> letter = dead.get(0);
            assertEquals("card-x", letter.key());
            assertEquals(new Payment("card-x", 7, 2_000), letter.value(), "the input record, replayable");
            assertArrayEquals(
                    new byte[] {1}, letter.headers().lastHeader("trace").value());
            assertEquals("VALUE_SERIALIZATION", letter.header(DeadLetterRecord.REASON_HEADER));
            assertEquals("amounts", letter.header(DeadLetterRecord.SINK_TOPIC_HEADER));
            assertEquals(SerializationException.class.getName(), letter.header(DeadLetterRecord.EXCEPTION_HEADER));
            assertEquals("1", letter.header(DeadLetterRecord.SOURCE_OFFSET_HEADER));
            assertEquals(1, driver.metrics().get(SINK, WeirMetrics.RECORDS_DEAD_LETTERED));
            assertEquals(0, driver.metrics().get(SINK, WeirMetrics.RECORDS_PRODUCTION_SKIPPED));
        }
    }

    @Test
    void aWindowResultThatDoesNotSerializeIsDeadLetteredWithTheFailureOnly() {
        StreamsBuilder builder = new StreamsBuilder();
        Serde<Long> noSeven = org.apache.kafka.common.serialization.Serdes.serdeFrom(
                (topic, n) -> {
                    if (n == 7) {
                        throw new SerializationException("no sevens");
                    }
                    return Serdes.Long().serializer().serialize(topic, n);
                },
                Serdes.Long().deserializer());
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.as("clicks-per-user"))
                .toStream()
                .to(
                        "click-counts",
                        Produced.with(WindowedSerdes.string(), noSeven)
                                .withErrorHandler(ProductionErrorHandler.deadLetterTo("click-counts-dlq")));
        try (TestDriver driver = new TestDriver(builder.build())) {
            var clicks = driver.input("clicks", Serdes.String(), Serdes.String());
            for (int i = 0; i < 7; i++) {
                clicks.pipe("u1", "c", 1_000 + i);
            }
            clicks.pipe("u2", "c", 2_000);
            driver.endOfInput();
            assertEquals(
                    List.of(1L),
                    driver.output("click-counts", WindowedSerdes.string(), Serdes.Long())
                            .readValues());
            List<OutputRecord<byte[], byte[]>> dead = driver.output(
                            "click-counts-dlq", Serdes.ByteArray(), Serdes.ByteArray())
                    .readAll();
            assertEquals(1, dead.size());
            assertNull(dead.get(0).key());
            assertNull(dead.get(0).value());
            assertEquals(9_999, dead.get(0).timestamp(), "the window result's event time");
            assertEquals("click-counts", dead.get(0).header(DeadLetterRecord.SINK_TOPIC_HEADER));
            assertNull(dead.get(0).header(DeadLetterRecord.SOURCE_TOPIC_HEADER));
            assertTrue(dead.get(0).header(DeadLetterRecord.MESSAGE_HEADER).contains("a window result"));
        }
    }
}
