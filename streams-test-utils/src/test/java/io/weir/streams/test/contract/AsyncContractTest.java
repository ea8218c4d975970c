package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mapValuesAsync} and {@code flatMapValuesAsync}, one test per rule, against a service the test completes by hand (in any order,
 * with failures), on the TestDriver's virtual clock.
 */
class AsyncContractTest {

    private static final Duration OUT_OF_ORDER = Duration.ofSeconds(1);

    /** A remote service whose calls the test answers: each call's value, in call order, and its answer. */
    private static final class Service {
        final List<String> calls = new ArrayList<>();
        final List<CompletableFuture<String>> answers = new ArrayList<>();

        synchronized CompletionStage<String> call(String value) {
            calls.add(value);
            CompletableFuture<String> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        /** Answers the {@code n}th call (from 0) with its value in upper case. */
        synchronized void answer(int n) {
            answers.get(n).complete(calls.get(n).toUpperCase(Locale.ROOT));
        }

        synchronized void fail(int n) {
            answers.get(n).completeExceptionally(new IllegalStateException("service unavailable"));
        }
    }

    private final Service service = new Service();

    @TempDir
    Path stateDir;

    private TestDriver driver(UnaryOperator<Async<String, String>> async, StreamsBuilder builder, Path dir) {
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(OUT_OF_ORDER)))
                .mapValuesAsync(service::call, async.apply(Async.<String, String>as("score")))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("async").withStateDir(dir));
    }

    private TestDriver driver(UnaryOperator<Async<String, String>> async) throws Exception {
        return driver(async, new StreamsBuilder(), stateDir);
    }

    private static void pipe(TestInputTopic<String, String> in, String key, String value, long time) {
        in.pipe(TestRecord.of(key, value).at(time));
    }

    /** Lets the operator take in the answers: a millisecond of processing time. */
    private static void tick(TestDriver driver) {
        driver.advanceTime(Duration.ofMillis(1));
    }

    @Test
    void resultsOfOneKeyLeaveInArrivalOrderWhileOtherKeysOvertake() throws Exception {
        try (TestDriver driver = driver(a -> a)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_001);
            pipe(in, "b", "b1", 1_002);
            service.answer(1);
            service.answer(2);
            tick(driver);
            assertEquals(List.of("B1"), out.readValues(), "a2 waits for a1; b overtakes");
            service.answer(0);
            tick(driver);
            assertEquals(List.of("A1", "A2"), out.readValues());
        }
    }

    @Test
    void flatMapValuesAsyncForwardsEachValueOfAnAnswerInItsRecordsPlaceAndNoneForAnEmptyOrNullOne() throws Exception {
        List<CompletableFuture<List<String>>> answers = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValuesAsync(
                        value -> {
                            CompletableFuture<List<String>> answer = new CompletableFuture<>();
                            answers.add(answer);
                            return answer;
                        },
                        Async.<String, String>as("rows"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("async-flat").withStateDir(stateDir))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_001);
            pipe(in, "a", "a3", 1_002);
            pipe(in, "a", "a4", 1_003);
            answers.get(3).complete(List.of("a4-x"));
            answers.get(2).complete(null);
            answers.get(1).complete(List.of());
            tick(driver);
            assertEquals(List.of(), out.readValues(), "all wait for a1");
            answers.get(0).complete(List.of("a1-x", "a1-y", "a1-z"));
            tick(driver);
            assertEquals(List.of("a1-x", "a1-y", "a1-z", "a4-x"), out.readValues());
        }
    }

    @Test
    void aFlatMapAnswerWhoseIterationThrowsGoesToTheProcessingErrorHandlerAfterTheValuesBeforeIt() throws Exception {
        List<CompletableFuture<Iterable<String>>> answers = new ArrayList<>();
        StreamsBuilder builder =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValuesAsync(
                        value -> {
                            CompletableFuture<Iterable<String>> answer = new CompletableFuture<>();
                            answers.add(answer);
                            return answer;
                        },
                        Async.<String, String>as("rows"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults()
                        .withApplicationId("async-flat-throws")
                        .withStateDir(stateDir))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_001);
            pipe(in, "b", "b1", 1_002);
            answers.get(1).complete(List.of("a2-x"));
            answers.get(2).complete(List.of("b1-x"));
            answers.get(0)
                    .complete(() -> List.of("a1-x", "a1-y").stream()
                            .map(v -> {
                                if (v.endsWith("y")) {
                                    throw new IllegalStateException("row 2 unreadable");
                                }
                                return v;
                            })
                            .iterator());
            tick(driver);
            assertEquals(
                    List.of("a1-x", "a2-x", "b1-x"),
                    out.readValues(),
                    "a1's first value left; its failure is skipped and counted; a2 and b1 follow");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void partitionOrderHoldsEveryResultBehindTheEarliest() throws Exception {
        try (TestDriver driver = driver(Async::inPartitionOrder)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "b", "b1", 1_001);
            service.answer(1);
            tick(driver);
            assertEquals(List.of(), out.readValues());
            service.answer(0);
            tick(driver);
            assertEquals(List.of("A1", "B1"), out.readValues());
        }
    }

    @Test
    void aFailedAttemptIsRetriedAfterItsBackoffAndATimedOutOneToo() throws Exception {
        try (TestDriver driver = driver(a ->
                a.withTimeout(Duration.ofSeconds(5)).withRetries(2, Duration.ofSeconds(1), Duration.ofSeconds(4)))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            service.fail(0);
            tick(driver);
            assertEquals(1, service.calls.size(), "the retry waits for its backoff");
            driver.advanceTime(Duration.ofSeconds(1));
            assertEquals(2, service.calls.size());
            driver.advanceTime(Duration.ofSeconds(5));
            assertEquals(2, service.calls.size(), "timed out; the second backoff is 2 s");
            driver.advanceTime(Duration.ofSeconds(2));
            assertEquals(3, service.calls.size());
            service.answer(1);
            service.answer(2);
            tick(driver);
            assertEquals(List.of("A1"), out.readValues(), "the timed-out attempt's late answer counts for nothing");
        }
    }

    @Test
    void aCallThatFailsItsLastAttemptGoesToTheProcessingErrorHandler() throws Exception {
        StreamsBuilder builder =
                new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.logAndContinue());
        try (TestDriver driver = driver(a -> a, builder, stateDir)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "a", "a2", 1_001);
            service.answer(1);
            service.fail(0);
            tick(driver);
            assertEquals(List.of("A2"), out.readValues(), "a1 skipped in its place, a2 after it");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void recordsInFlightKeepTheWatermarkBelowThemSoTheirResultsAreNotLate() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(OUT_OF_ORDER)))
                .mapValuesAsync(service::call, Async.<String, String>as("score"))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to("counts");
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("async-window").withStateDir(stateDir))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> counts =
                    driver.output("counts", WindowedSerdes.string(), Serdes.Long());
            pipe(in, "a", "a1", 5_000);
            pipe(in, "b", "b1", 30_000);
            service.answer(1);
            tick(driver);
            assertEquals(List.of(), counts.readValues(), "a1 at 5 s is in flight: the window [0, 10 s) stays open");
            service.answer(0);
            tick(driver);
            assertEquals(List.of(1L), counts.readValues(), "a1 counted, then its window closed");
            assertEquals(0, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void aCrashCallsAgainForTheRecordsInFlightAtTheCommitAndForwardsEachResultOnce() throws Exception {
        try (TestDriver driver = driver(a -> a)) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "b", "b1", 1_001);
            service.answer(1);
            tick(driver);
            driver.commit();
            assertEquals(List.of("B1"), out.readValues());
            driver.crash();
            assertEquals(List.of("a1", "b1", "a1"), service.calls, "a1 called again; b1's result was committed");
            service.answer(2);
            tick(driver);
            assertEquals(List.of("A1"), out.readValues());
            service.answer(0);
            tick(driver);
            assertEquals(List.of(), out.readValues(), "the first owner's call answers into nothing");
        }
    }

    @Test
    void atCapacityPipingWaitsForACallToMakeRoom() throws Exception {
        ScheduledExecutorService remote = Executors.newSingleThreadScheduledExecutor();
        try (TestDriver driver = driver(a -> a.withCapacity(2))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            pipe(in, "a", "a1", 1_000);
            pipe(in, "b", "b1", 1_001);
            remote.schedule(() -> service.answer(0), 50, TimeUnit.MILLISECONDS);
            pipe(in, "c", "c1", 1_002);
            assertEquals(3, service.calls.size());
            assertTrue(out.readValues().contains("A1"), "a1's result left to make room for c1");
        } finally {
            remote.shutdownNow();
        }
    }
}
