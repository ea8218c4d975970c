package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.TimeDomain;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exception thrown by user code goes to the topology's processing-error handler, decided by the
 * operator that threw: fail naming the operator and the record, skip and count, or dead-letter the
 * input record as consumed.
 */
class ProcessingErrorTest {

    /** numbers -> parse (throws on non-numbers) -> doubled -> "doubled"; a second branch copies to "copies". */
    private static TestDriver parsing(ProcessingErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(handler);
        EventStream<String, String> numbers =
                builder.stream("numbers", Consumed.with(Serdes.String(), Serdes.String()));
        numbers.to("copies", Produced.with(Serdes.String(), Serdes.String()));
        numbers.mapValues(Long::parseLong)
                .mapValues(n -> n * 2)
                .to("doubled", Produced.with(Serdes.String(), Serdes.Long()));
        return new TestDriver(builder.build());
    }

    @Test
    void userCodeThatThrowsFailsByDefaultNamingTheOperatorAndTheRecord() {
        try (TestDriver driver = parsing(ProcessingErrorHandler.fail())) {
            TestInputTopic<String, String> in = driver.input("numbers", Serdes.String(), Serdes.String());
            in.pipe("a", "1");
            ProcessingError e = assertThrows(ProcessingError.class, () -> in.pipe("a", "one"));
            assertTrue(e.operator().startsWith("map-values-"), e.operator());
            assertEquals("numbers", e.sourceTopic().orElseThrow());
            assertEquals(0, e.sourcePartition());
            assertEquals(1, e.sourceOffset());
            assertInstanceOf(NumberFormatException.class, e.getCause());
            assertTrue(e.getMessage().contains("numbers-0@1") && e.getMessage().contains(e.operator()), e.getMessage());
        }
    }

    @Test
    void continueSkipsTheRecordFromTheFailingOperatorOnAndCountsIt() {
        try (TestDriver driver = parsing(ProcessingErrorHandler.logAndContinue())) {
            TestInputTopic<String, String> in = driver.input("numbers", Serdes.String(), Serdes.String());
            in.pipe("a", "1");
            in.pipe("a", "one");
            in.pipe("a", "3");

            assertEquals(
                    List.of(2L, 6L),
                    driver.output("doubled", Serdes.String(), Serdes.Long()).readValues());
            assertEquals(
                    List.of("1", "one", "3"),
                    driver.output("copies", Serdes.String(), Serdes.String()).readValues(),
                    "the other branch is not affected");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
            assertEquals(0, driver.metrics().total(WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void deadLetterWritesTheInputRecordAsConsumedNamingTheOperator() {
        try (TestDriver driver = parsing(ProcessingErrorHandler.deadLetterTo("numbers-dlq"))) {
            TestInputTopic<String, String> in = driver.input("numbers", Serdes.String(), Serdes.String());
            in.pipe("a", "1");
            in.pipe(TestRecord.of("b", "one").at(5_000).withHeader("trace", "t-7".getBytes(StandardCharsets.UTF_8)));

            List<OutputRecord<String, String>> dead = driver.output("numbers-dlq", Serdes.String(), Serdes.String())
                    .readAll();
            assertEquals(1, dead.size());
            OutputRecord<String, String> letter = dead.get(0);
            assertEquals("b", letter.key());
            assertEquals("one", letter.value());
            assertEquals(5_000, letter.timestamp());
            assertEquals("t-7", letter.header("trace"));
            assertEquals(DeadLetterRecord.PROCESSING_REASON, letter.header(DeadLetterRecord.REASON_HEADER));
            assertTrue(letter.header(DeadLetterRecord.OPERATOR_HEADER).startsWith("map-values-"));
            assertEquals(NumberFormatException.class.getName(), letter.header(DeadLetterRecord.EXCEPTION_HEADER));
            assertEquals("1", letter.header(DeadLetterRecord.SOURCE_OFFSET_HEADER));
            assertNull(letter.header(DeadLetterRecord.SINK_TOPIC_HEADER));
            assertEquals(
                    List.of(2L),
                    driver.output("doubled", Serdes.String(), Serdes.Long()).readValues());
            assertEquals(
                    1,
                    driver.metrics()
                            .get(letter.header(DeadLetterRecord.OPERATOR_HEADER), WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }

    @Test
    void anExceptionIsDecidedByTheOperatorThatThrewNotByItsUpstreamOperators() {
        List<String> operators = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(error -> {
            operators.add(error.operator());
            return ErrorDecision.CONTINUE;
        });
        builder.stream("numbers", Consumed.with(Serdes.String(), Serdes.String()))
                .filter((k, v) -> true)
                .mapValues(v -> v)
                .mapValues(Long::parseLong)
                .to("parsed", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            driver.input("numbers", Serdes.String(), Serdes.String()).pipe("a", "x");
        }
        assertEquals(1, operators.size(), "one decision per failure: " + operators);
        assertTrue(operators.get(0).startsWith("map-values-"), operators.toString());
    }

    @Test
    void anAggregatorThatThrowsIsUserCode() {
        StreamsBuilder builder =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        builder.stream("amounts", Consumed.with(Serdes.String(), Serdes.Long()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .aggregate(
                        () -> 0L,
                        (key, amount, sum) -> {
                            if (amount < 0) {
                                throw new IllegalArgumentException("negative amount");
                            }
                            return sum + amount;
                        },
                        Materialized.<String, Long>as("sums").withValueSerde(Serdes.Long()))
                .toStream()
                .to("sums", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, Long> in = driver.input("amounts", Serdes.String(), Serdes.Long());
            in.pipe("a", 5L, 1_000);
            in.pipe("a", -1L, 2_000);
            in.pipe("a", 7L, 3_000);
            driver.endOfInput();
            assertEquals(
                    List.of(12L),
                    driver.output("sums", WindowedSerdes.string(), Serdes.Long())
                            .readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    /** Forwards each value; its event-time timer throws. */
    static final class ThrowingTimer implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 1_000);
            ctx.forward(key, value);
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            throw new IllegalStateException("timer broke");
        }
    }

    @Test
    void aTimerThatThrowsFailsWithoutASourceRecord() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(ThrowingTimer::new)
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("a", "v", 1_000);
            ProcessingError e = assertThrows(ProcessingError.class, driver::endOfInput);
            assertFalse(e.sourceTopic().isPresent());
            assertEquals(-1, e.sourceOffset());
            assertTrue(e.getMessage().contains("a window result or timer"), e.getMessage());
            assertEquals("timer broke", e.getCause().getMessage());
        }
    }

    @Test
    void aHandlerThatDecidesNothingFailsNamingTheOperator() {
        try (TestDriver driver = parsing(error -> null)) {
            TestInputTopic<String, String> in = driver.input("numbers", Serdes.String(), Serdes.String());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> in.pipe("a", "x"));
            assertTrue(e.getMessage().contains("map-values-"), e.getMessage());
        }
    }

    @Test
    void aKeySelectorThatThrowsIsUserCode() {
        StreamsBuilder builder =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((k, v) -> {
                    if (v.isEmpty()) {
                        throw new IllegalArgumentException("empty");
                    }
                    return v.substring(0, 1);
                })
                .to("keyed", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("a", "");
            in.pipe("a", "xy");
            assertEquals(
                    List.of("x"),
                    driver.output("keyed", Serdes.String(), Serdes.String()).readAll().stream()
                            .map(OutputRecord::key)
                            .toList());
        }
    }
}
