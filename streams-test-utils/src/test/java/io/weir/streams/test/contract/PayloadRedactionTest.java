package io.weir.streams.test.contract;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A payload never leaks into what Weir logs or writes to dead-letter headers, though deserializers and user
 * code quote it in their exceptions: the card number here reaches neither, while the exception type, the
 * operator and the coordinates do. The handler and the caller still get the original exceptions.
 */
class PayloadRedactionTest {

    private static final String CARD = "4111 1111 1111 1111";

    record Payment(String card, int amount) {}

    /** Every log line (and its exception chain) {@code run} makes, as text. */
    private static List<String> logged(Runnable run) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        root.addAppender(appender);
        try {
            run.run();
        } finally {
            root.detachAppender(appender);
        }
        List<String> lines = new ArrayList<>();
        for (ILoggingEvent event : appender.list) {
            lines.add(event.getFormattedMessage());
            for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                lines.add(t.getClassName() + ": " + t.getMessage());
            }
        }
        return lines;
    }

    private static void assertNoCard(String where, String text) {
        assertFalse(text.contains("4111"), where + " carries the card number: " + text);
    }

    @Test
    void aRecordJsonCannotReadIsDeadLetteredAndLoggedWithoutItsPayload() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), JsonSerde.of(Payment.class))
                                .withErrorHandler(RecordErrorHandler.deadLetterTo("payments-dlq")))
                .to("out", Produced.with(Serdes.String(), JsonSerde.of(Payment.class)));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            List<String> lines = logged(() -> in.pipe("k", "{\"card\":\"" + CARD + "\",\"amount\":\"" + CARD + "\"}"));
            assertFalse(lines.isEmpty(), "the dead letter is logged");
            lines.forEach(line -> assertNoCard("a log line", line));
            OutputRecord<String, String> letter = driver.output("payments-dlq", Serdes.String(), Serdes.String())
                    .readAll()
                    .get(0);
            assertNoCard("the message header", letter.header(DeadLetterRecord.MESSAGE_HEADER));
            assertTrue(letter.header(DeadLetterRecord.MESSAGE_HEADER).contains("payments-0@0"));
            assertTrue(letter.value().contains(CARD), "the dead letter itself is the record as consumed");
        }
    }

    /** in -> mapValues that throws quoting the value -> out. */
    private static TestDriver declining(ProcessingErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(handler);
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .<String>mapValues(v -> {
                    throw new IllegalArgumentException("card " + v + " declined");
                })
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build());
    }

    @Test
    void userCodeThatQuotesTheValueInItsExceptionLeavesItOutOfLogsAndHeaders() {
        try (TestDriver driver = declining(ProcessingErrorHandler.deadLetterTo("dlq"))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            List<String> lines = logged(() -> in.pipe("k", CARD));
            lines.forEach(line -> assertNoCard("a log line", line));
            OutputRecord<String, String> letter = driver.output("dlq", Serdes.String(), Serdes.String())
                    .readAll()
                    .get(0);
            assertNoCard("the message header", letter.header(DeadLetterRecord.MESSAGE_HEADER));
            assertEquals(IllegalArgumentException.class.getName(), letter.header(DeadLetterRecord.EXCEPTION_HEADER));
            assertTrue(letter.header(DeadLetterRecord.MESSAGE_HEADER).contains("map-values-"));
        }
    }

    @Test
    void theErrorThrownKeepsThePayloadOutOfItsMessageButTheOriginalAsItsCause() {
        try (TestDriver driver = declining(ProcessingErrorHandler.fail())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            ProcessingError e = assertThrows(ProcessingError.class, () -> in.pipe("k", CARD));
            assertNoCard("the error's message", e.getMessage());
            assertTrue(e.getMessage().contains("in-0@0") && e.getMessage().contains("IllegalArgumentException"));
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains(CARD), "user code gets what it threw");
        }
    }
}
