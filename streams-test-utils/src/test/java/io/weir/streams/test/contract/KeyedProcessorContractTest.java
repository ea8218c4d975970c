package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keyed processor: its stores, its per-key timers in both time domains, and its place among DSL
 * operators, in the TestDriver. Input "in": String keys and values, no watermark delay.
 */
class KeyedProcessorContractTest {

    /**
     * Remembers each key's first value and emits it; an event-time timer at first + 5 000 emits
     * "expired" and forgets the key; a processing-time timer, when asked for by value "ping", emits "pong".
     */
    static final class FirstValue implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> first = ctx.store("first");
            if (value.equals("ping")) {
                ctx.registerTimer(TimeDomain.PROCESSING_TIME, ctx.processingTime() + 1_000);
                return;
            }
            if (first.get(key) == null) {
                first.put(key, value);
                ctx.forward(key, value);
                ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 5_000);
                ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 5_000);
            }
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            if (domain == TimeDomain.PROCESSING_TIME) {
                ctx.forward(ctx.currentKey(), "pong");
                return;
            }
            ctx.<String, String>store("first").delete(ctx.currentKey());
            ctx.forward(ctx.currentKey(), "expired");
        }
    }

    private static final class Fixture implements AutoCloseable {
        final TestDriver driver;
        final TestInputTopic<String, String> in;
        final TestOutputTopic<String, String> out;

        Fixture(Supplier<? extends KeyedProcessor<String, String, String, String>> processor, StoreType type) {
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream(
                            "in",
                            Consumed.with(Serdes.String(), Serdes.String())
                                    .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                    .groupByKey()
                    .process(
                            processor,
                            Materialized.<String, String>as("first")
                                    .withKeySerde(Serdes.String())
                                    .withValueSerde(Serdes.String())
                                    .withStoreType(type))
                    .to("out", Produced.with(Serdes.String(), Serdes.String()));
            driver = new TestDriver(builder.build());
            in = driver.input("in", Serdes.String(), Serdes.String());
            out = driver.output("out", Serdes.String(), Serdes.String());
        }

        void pipe(String key, String value, long eventTime) {
            in.pipe(TestRecord.of(key, value).at(eventTime).arrivingAt(driver.processingTime()));
        }

        List<String> read() {
            List<String> lines = new ArrayList<>();
            for (OutputRecord<String, String> r : out.readAll()) {
                lines.add(r.key() + "=" + r.value() + "@" + r.timestamp());
            }
            return lines;
        }

        @Override
        public void close() {
            driver.close();
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void anEventTimeTimerFiresOnceWhenTheWatermarkReachesIt(StoreType type) {
        try (Fixture f = new Fixture(FirstValue::new, type)) {
            f.pipe("a", "x", 1_000);
            f.pipe("a", "y", 2_000);
            assertEquals(List.of("a=x@1000"), f.read());
            assertEquals(Map.of("a", "x"), f.driver.keyValueStore("first", Serdes.String(), Serdes.String()));
            f.pipe("b", "z", 6_000);
            assertEquals(List.of("b=z@6000"), f.read(), "W = 5 999: the timer at 6 000 waits");
            f.pipe("b", "w", 6_001);
            assertEquals(List.of("a=expired@6000"), f.read(), "registered twice, fired once, at its own time");
            assertEquals(Map.of("b", "z"), f.driver.keyValueStore("first", Serdes.String(), Serdes.String()));
            assertEquals(1, f.driver.metrics().get("process-1", WeirMetrics.TIMERS_FIRED));
        }
    }

    @Test
    void aTimerTheWatermarkHasAlreadyPassedFiresRightAfterTheRecord() {
        try (Fixture f = new Fixture(FirstValue::new, StoreType.IN_MEMORY)) {
            f.pipe("b", "z", 100_000);
            f.pipe("a", "late", 1_000);
            assertEquals(List.of("b=z@100000", "a=late@1000", "a=expired@6000"), f.read());
        }
    }

    @Test
    void aProcessingTimeTimerFiresWhenTheClockReachesIt() {
        try (Fixture f = new Fixture(FirstValue::new, StoreType.IN_MEMORY)) {
            f.pipe("a", "ping", 1_000);
            f.driver.advanceTimeTo(Instant.ofEpochMilli(999));
            assertEquals(List.of(), f.read());
            f.driver.advanceTimeTo(Instant.ofEpochMilli(1_000));
            assertEquals(List.of("a=pong@1000"), f.read(), "stamped with the processing time it fired at");
        }
    }

    @Test
    void theEndOfInputFiresEveryEventTimeTimer() {
        try (Fixture f = new Fixture(FirstValue::new, StoreType.IN_MEMORY)) {
            f.pipe("a", "x", 1_000);
            f.pipe("b", "x", 2_000);
            f.read();
            f.driver.endOfInput();
            assertEquals(List.of("a=expired@6000", "b=expired@7000"), f.read());
        }
    }

    @Test
    void aDeletedTimerDoesNotFire() {
        KeyedProcessor<String, String, String, String> cancelling = new KeyedProcessor<>() {
            @Override
            public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                if (value.equals("cancel")) {
                    ctx.deleteTimer(TimeDomain.EVENT_TIME, 5_000);
                } else {
                    ctx.registerTimer(TimeDomain.EVENT_TIME, 5_000);
                }
            }

            @Override
            public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
                ctx.forward(ctx.currentKey(), "fired");
            }
        };
        try (Fixture f = new Fixture(() -> cancelling, StoreType.IN_MEMORY)) {
            f.pipe("a", "arm", 1_000);
            f.pipe("b", "arm", 1_000);
            f.pipe("a", "cancel", 1_000);
            f.driver.endOfInput();
            assertEquals(List.of("b=fired@5000"), f.read());
        }
    }

    @Test
    void timersNeedACurrentKeyAndStoresMustBeDeclared() {
        KeyedProcessor<String, String, String, String> early = new KeyedProcessor<>() {
            @Override
            public void init(KeyedProcessorContext<String, String, String> ctx) {
                ctx.registerTimer(TimeDomain.EVENT_TIME, 1);
            }

            @Override
            public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {}
        };
        IllegalStateException init =
                assertThrows(IllegalStateException.class, () -> new Fixture(() -> early, StoreType.IN_MEMORY).close());
        assertTrue(init.getMessage().startsWith("registerTimer needs a current key"), init.getMessage());
        KeyedProcessor<String, String, String, String> undeclared = (key, value, ctx) -> ctx.store("other");
        try (Fixture f = new Fixture(() -> undeclared, StoreType.IN_MEMORY)) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> f.pipe("a", "x", 1));
            assertTrue(
                    String.valueOf(e.getMessage()).contains("has no key-value store named 'other'")
                            || String.valueOf(e.getCause()).contains("has no key-value store named 'other'"),
                    String.valueOf(e));
        }
    }

    @Test
    void aStoreWithoutSerdesFailsAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        var grouped = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey();
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> grouped.process(FirstValue::new, Materialized.as("first")));
        assertTrue(
                e.getMessage().startsWith("process 'process-1': store #1 needs a name, a key serde and a value serde"),
                e.getMessage());
    }

    /** filter -> process (first value per key) -> map to a new key -> windowed count, all in one topology. */
    @Test
    void aProcessorRunsBetweenDslOperators() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .filter((k, v) -> !v.equals("ignored"))
                .groupByKey()
                .process(
                        FirstValue::new,
                        Materialized.<String, String>as("first")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()))
                .filter((k, v) -> !v.equals("expired"))
                .selectKey((k, v) -> v)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to("firsts-per-value");
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe("a", "ignored", 500);
            in.pipe("a", "red", 1_000);
            in.pipe("b", "red", 2_000);
            in.pipe("c", "blue", 3_000);
            in.pipe("a", "blue", 4_000);
            driver.endOfInput();
            TestOutputTopic<Windowed<String>, Long> out =
                    driver.output("firsts-per-value", WindowedSerdes.string(), Serdes.Long());
            Map<String, Long> counts = new TreeMap<>();
            out.readAll().forEach(r -> counts.put(r.key().key(), r.value()));
            assertEquals(Map.of("red", 2L, "blue", 1L), counts, "a's second value was not its first");
        }
    }

    /** Records for "a" register timers at 100 and 200; the callback at 100 deletes 200 and re-registers 100. */
    private static final KeyedProcessor<String, String, String, String> CHAINED = new KeyedProcessor<>() {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            if (key.equals("a")) {
                ctx.registerTimer(TimeDomain.EVENT_TIME, 100);
                ctx.registerTimer(TimeDomain.EVENT_TIME, 200);
            }
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            ctx.forward(ctx.currentKey(), "fired@" + time);
            ctx.deleteTimer(TimeDomain.EVENT_TIME, 200);
            ctx.registerTimer(TimeDomain.EVENT_TIME, 100);
        }
    };

    @Test
    @Timeout(30)
    void aCallbackMayDeleteATimerDueInTheSameRoundAndATimerItRegistersWaitsForTheNextAdvance() {
        try (Fixture f = new Fixture(() -> CHAINED, StoreType.IN_MEMORY)) {
            f.pipe("a", "x", 0);
            f.pipe("b", "x", 1_000);
            assertEquals(List.of("a=fired@100@100"), f.read(), "200 was deleted before its turn; 100 again waits");
            f.pipe("b", "x", 1_001);
            assertEquals(List.of("a=fired@100@100"), f.read(), "the re-registered timer fires at the next advance");
            f.driver.endOfInput();
            assertEquals(
                    List.of("a=fired@100@100"),
                    f.read(),
                    "and the end of input ends, though it re-registers each time");
        }
    }

    @Test
    void anEventTimeTimerRegisteredByAProcessingTimeCallbackFiresAtOnceIfTheWatermarkPassedIt() {
        KeyedProcessor<String, String, String, String> late = new KeyedProcessor<>() {
            @Override
            public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                ctx.registerTimer(TimeDomain.PROCESSING_TIME, 1_000);
            }

            @Override
            public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
                if (domain == TimeDomain.PROCESSING_TIME) {
                    ctx.registerTimer(TimeDomain.EVENT_TIME, 500);
                } else {
                    ctx.forward(ctx.currentKey(), "event-time " + time);
                }
            }
        };
        try (Fixture f = new Fixture(() -> late, StoreType.IN_MEMORY)) {
            f.pipe("a", "x", 5_000);
            f.driver.advanceTimeTo(Instant.ofEpochMilli(1_000));
            assertEquals(
                    List.of("a=event-time 500@500"), f.read(), "W = 4 999 had passed 500: no need to wait for input");
        }
    }
}
