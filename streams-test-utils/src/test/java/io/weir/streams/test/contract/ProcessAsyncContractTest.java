package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.AsyncCallFailedException;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code processAsync}, one test per rule, against calls the test answers by hand (in any order, with
 * failures), on the TestDriver's virtual clock. Input "in": String keys and values, a watermark 1 s behind the
 * latest event time.
 */
class ProcessAsyncContractTest {

    private static final Duration OUT_OF_ORDER = Duration.ofSeconds(1);

    /** The calls made, in order: each one's value and its answer, which the test completes. */
    private final List<String> calls = new ArrayList<>();

    private final List<CompletableFuture<String>> answers = new ArrayList<>();

    @TempDir
    Path stateDir;

    /**
     * Appends each answer to its key's history in store "history" and forwards the history; a timer 500 ms
     * of event time after each record forwards the history as the timer saw it. Processing the answer for
     * value "poison" throws, and so do the timers of key "fragile". A failed call, unless {@code
     * handleFailures}, goes to the error handler; if so, it appends "failed" to the history.
     */
    private final class History implements AsyncKeyedProcessor<String, String, String, String, String> {
        private final boolean handleFailures;

        History(boolean handleFailures) {
            this.handleFailures = handleFailures;
        }

        @Override
        public CompletionStage<String> call(String key, String value) {
            calls.add(value);
            CompletableFuture<String> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        @Override
        public void process(
                String key, String value, String answer, KeyedProcessorContext<String, String, String> ctx) {
            if (value.equals("poison")) {
                throw new IllegalStateException("cannot use this answer");
            }
            append(key, answer, ctx);
            ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 500);
        }

        @Override
        public void onFailure(
                String key,
                String value,
                AsyncCallFailedException failure,
                KeyedProcessorContext<String, String, String> ctx) {
            if (!handleFailures) {
                throw failure;
            }
            append(key, "failed", ctx);
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            if (ctx.currentKey().equals("fragile")) {
                throw new IllegalStateException("the timer's work failed");
            }
            KeyValueStore<String, String> history = ctx.store("history");
            ctx.forward(ctx.currentKey(), "timer@" + time + ":" + history.get(ctx.currentKey()));
        }

        private static void append(String key, String entry, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> history = ctx.store("history");
            String before = history.get(key);
            String after = before == null ? entry : before + "," + entry;
            history.put(key, after);
            ctx.forward(key, after);
        }
    }

    /** "in" through processAsync "enrich" running {@link History}, with its store "history". */
    private EventStream<String, String> enriched(
            StreamsBuilder builder, UnaryOperator<Async<String, String>> async, boolean handle) {
        return builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(OUT_OF_ORDER)))
                .groupByKey()
                .processAsync(
                        () -> new History(handle),
                        async.apply(Async.as("enrich")),
                        Materialized.<String, String>as("history")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()));
    }

    private TestDriver driver(StreamsBuilder builder, UnaryOperator<Async<String, String>> async, boolean handle) {
        enriched(builder, async, handle).to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("process-async").withStateDir(stateDir));
    }

    private TestDriver driver() {
        return driver(new StreamsBuilder(), a -> a, false);
    }

    private static void pipe(TestInputTopic<String, String> in, String key, String value, long time) {
        in.pipe(TestRecord.of(key, value).at(time));
    }

    private void answer(int n) {
        answers.get(n).complete(calls.get(n).toUpperCase(Locale.ROOT));
    }

    /** Lets the operator take in the answers: a millisecond of processing time. */
    private static void tick(TestDriver driver) {
        driver.advanceTime(Duration.ofMillis(1));
    }

    /**
     * A first record, answered: the watermark's first advance (from -infinity) is behind it, so the records
     * piped next are not.
     */
    private void warmUp(TestDriver driver, TestInputTopic<String, String> in, TestOutputTopic<String, String> out) {
        pipe(in, "w", "w0", 1_000);
        answer(0);
        tick(driver);
        assertEquals(List.of("W0"), out.readValues());
    }

    @Test
    void aKeysAnswersAreProcessedInArrivalOrderWithItsStateWhileOtherKeysOvertake() {
        try (TestDriver driver = driver()) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            warmUp(driver, in, out);
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_000);
            pipe(in, "b", "b1", 1_000);
            answer(2);
            answer(3);
            tick(driver);
            assertEquals(List.of("B1"), out.readValues(), "a2 waits for a1; b overtakes");
            answer(1);
            tick(driver);
            assertEquals(List.of("A1", "A1,A2"), out.readValues(), "a2's answer sees a1's state");
        }
    }

    @Test
    void aWatermarkAdvanceReachesTheProcessorAfterTheAnswersBeforeItAndBeforeThoseAfterIt() {
        try (TestDriver driver = driver()) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            warmUp(driver, in, out);
            pipe(in, "a", "a1", 1_000);
            pipe(in, "b", "b1", 3_000); // the watermark moves to 2 000: a1's timer at 1 500 will be due
            pipe(in, "c", "c1", 2_500); // after the advance
            answer(2);
            answer(3);
            tick(driver);
            assertEquals(List.of("B1"), out.readValues(), "b1 came before the advance; c1 after it, so it waits");
            answer(1);
            tick(driver);
            assertEquals(
                    List.of("A1", "timer@1500:A1", "timer@1500:W0", "C1"),
                    out.readValues(),
                    "as a synchronous processor: a1, the advance's timers, then what came after it");
        }
    }

    @Test
    void whatItForwardsAfterTheWaitFromAnAnswerOrATimerIsNotLateForAWindowBelow() {
        StreamsBuilder builder = new StreamsBuilder();
        enriched(builder, a -> a, false)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(1)))
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults()
                        .withApplicationId("process-async-window")
                        .withStateDir(stateDir))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> counts =
                    driver.output("counts", WindowedSerdes.string(), Serdes.Long());
            pipe(in, "a", "a1", 1_000);
            answer(0);
            tick(driver);
            // An advance to 8 000 waits for b1; a1's timer at 1 500 with it: the window below stays open.
            pipe(in, "b", "b1", 9_000);
            pipe(in, "c", "c1", 9_000);
            answer(2);
            tick(driver);
            answer(1);
            tick(driver);
            driver.endOfInput();
            Map<String, Long> byWindow = new TreeMap<>();
            counts.readAll()
                    .forEach(r ->
                            byWindow.put(r.key().key() + "@" + r.key().window().start(), r.value()));
            assertEquals(
                    Map.of("a@1000", 2L, "b@9000", 2L, "c@9000", 2L),
                    byWindow,
                    "each answer and its timer's output, 500 ms later, counted in the window of their time");
            assertEquals(0, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void aFailedCallGoesToOnFailureWhichByDefaultHandsItToTheProcessingErrorHandler() {
        StreamsBuilder skipping =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        try (TestDriver driver = driver(skipping, a -> a, false)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_000);
            answers.get(0).completeExceptionally(new IllegalStateException("service unavailable"));
            answer(1);
            tick(driver);
            assertEquals(List.of("A2"), out.readValues(), "a1 skipped in its place");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void aProcessorThatHandlesFailuresKeepsThemInItsState() {
        try (TestDriver driver = driver(new StreamsBuilder(), a -> a, true)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_000);
            answers.get(0).completeExceptionally(new IllegalStateException("service unavailable"));
            answer(1);
            tick(driver);
            assertEquals(List.of("failed", "failed,A2"), out.readValues());
            assertEquals(0, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void whatProcessOrATimerThrowsGoesToTheHandlerAndTheRecordsAfterItFlow() {
        StreamsBuilder skipping =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        try (TestDriver driver = driver(skipping, a -> a, false)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            warmUp(driver, in, out);
            pipe(in, "a", "poison", 1_000);
            pipe(in, "a", "a2", 1_000);
            pipe(in, "fragile", "f1", 1_000);
            answer(1);
            answer(2);
            answer(3);
            tick(driver);
            assertEquals(List.of("A2", "F1"), out.readValues(), "the poisoned answer skipped in its place");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
            pipe(in, "b", "b1", 3_000); // the watermark passes 1 500: the timers of a, fragile and w fire
            answer(4);
            tick(driver);
            assertEquals(
                    List.of("B1", "timer@1500:A2", "timer@1500:W0"),
                    out.readValues(),
                    "b1, then the advance's timers: fragile's failed and was skipped, the others fired");
            assertEquals(2, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void aRecordWithoutAKeyIsCountedAndNeverCalledFor() {
        try (TestDriver driver = driver()) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            warmUp(driver, in, out);
            in.pipe(TestRecord.<String, String>of(null, "n1").at(1_000));
            assertEquals(List.of("w0"), calls, "no call for a record without a key");
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
        }
    }

    @Test
    void aCrashCallsAgainForTheRecordsWaitingAtTheCommitAndKeepsTheQueuedAdvancesInTheirPlaces() {
        try (TestDriver driver = driver()) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            warmUp(driver, in, out);
            pipe(in, "a", "a1", 1_000);
            pipe(in, "b", "b1", 3_000); // an advance to 2 000, queued behind a1 and b1
            pipe(in, "c", "c1", 2_500);
            answer(2);
            answer(3);
            tick(driver);
            driver.commit();
            assertEquals(List.of("B1"), out.readValues(), "c1 waits behind the advance, which waits for a1");
            driver.crash();
            assertEquals(List.of("w0", "a1", "b1", "c1", "a1", "c1"), calls, "a1 and c1 called again, in order");
            answer(5);
            tick(driver);
            assertEquals(List.of(), out.readValues(), "the restored advance still waits for a1");
            answer(4);
            tick(driver);
            assertEquals(List.of("A1", "timer@1500:A1", "timer@1500:W0", "C1"), out.readValues());
            answer(1);
            answer(3);
            tick(driver);
            assertEquals(List.of(), out.readValues(), "the first owner's calls answer into nothing");
        }
    }

    @Test
    void processAsyncNeedsSerdesForTheRecordsItHolds() {
        StreamsBuilder builder = new StreamsBuilder();
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                        .mapValues(v -> v.length())
                        .groupByKey()
                        .<String, String, String>processAsync(
                                () -> {
                                    throw new AssertionError("not built");
                                },
                                Async.as("enrich")));
        assertEquals(
                "processAsync 'enrich': the stream's value serde is unknown (after map, selectKey or mapValues), "
                        + "and the records whose calls are in flight at a commit are kept with it; give both with "
                        + "Async.withSerdes(keySerde, valueSerde)",
                e.getMessage());
    }
}
