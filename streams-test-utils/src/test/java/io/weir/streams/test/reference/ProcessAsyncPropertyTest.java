package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.AsyncCallFailedException;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.kafka.TempDirs;
import io.weir.streams.test.reference.AsyncRuns.In;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code processAsync} against {@code process} doing the same work with the answer computed in place, on
 * random out-of-order streams: the calls are answered in a random order and at random later steps, some
 * fail, and some runs crash between commits; capacities 1 to 8, per-key limits below them, per-key or
 * partition order. The processor's work depends on order and time: it appends
 * each answer to its key's state with the watermark it sees, and an event-time timer a little later emits
 * the state and clears it, so a record processed on the wrong side of a timer, or with another watermark,
 * changes the output. Against the synchronous run, the asynchronous one must
 * <ul>
 *   <li>forward, per key, exactly the same records in the same order (from answers, failures and timers);</li>
 *   <li>make nothing late for a window downstream by waiting: its late records are some of the synchronous
 *       run's.</li>
 * </ul>
 */
class ProcessAsyncPropertyTest {

    private static final int SEEDS = 120;
    private static final long GAP = 30;
    private static final long WINDOW = 50;
    private static final Duration DELAY = Duration.ofMillis(20);

    /** What a run wrote: the processor's output in order, the values late downstream; and if it crashed. */
    private record Out(List<String> results, Set<String> late, boolean crashed) {}

    /** The work, shared by both runs: what a record's answer (or failure) and a timer do. */
    private static final class Work {
        private Work() {}

        static void answered(
                String key, String value, String answer, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> state = ctx.store("state");
            String before = state.get(key);
            String entry = value + "=" + answer + "@wm" + ctx.watermark();
            state.put(key, before == null ? entry : before + "," + entry);
            ctx.forward(key, entry);
            ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + GAP);
        }

        static void timer(long time, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> state = ctx.store("state");
            ctx.forward(ctx.currentKey(), "timer@" + time + "[" + state.get(ctx.currentKey()) + "]");
            state.delete(ctx.currentKey());
        }
    }

    private static final class Synchronous implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            Work.answered(key, value, ScriptedService.fails(value) ? "failed" : ScriptedService.answerFor(value), ctx);
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            Work.timer(time, ctx);
        }
    }

    private static final class Asynchronous implements AsyncKeyedProcessor<String, String, String, String, String> {
        private final ScriptedService service;

        Asynchronous(ScriptedService service) {
            this.service = service;
        }

        @Override
        public CompletionStage<String> call(String key, String value) {
            return service.call(key, value);
        }

        @Override
        public void process(
                String key, String value, @Nullable String answer, KeyedProcessorContext<String, String, String> ctx) {
            Work.answered(key, value, String.valueOf(answer), ctx);
        }

        @Override
        public void onFailure(
                String key,
                String value,
                AsyncCallFailedException failure,
                KeyedProcessorContext<String, String, String> ctx) {
            Work.answered(key, value, "failed", ctx);
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            Work.timer(time, ctx);
        }
    }

    @Test
    void perKeyTheAsynchronousProcessorDoesWhatTheSynchronousOneDoes() throws IOException {
        int crashes = 0;
        int failures = 0;
        int lateBoth = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            List<In> input = AsyncRuns.generate(new Random(seed));
            Out sync = run(input, null);
            Out async = run(input, new Random(seed * 31 + 7));
            String context = "seed " + seed + ", input " + input;
            assertEquals(
                    AsyncRuns.byKey(sync.results()), AsyncRuns.byKey(async.results()), "each key's output: " + context);
            Set<String> madeLate = new HashSet<>(async.late());
            madeLate.removeAll(sync.late());
            if (!madeLate.isEmpty()) {
                fail("late only because of waiting for calls: " + madeLate + "; " + context);
            }
            crashes += async.crashed() ? 1 : 0;
            failures += sync.results().stream().anyMatch(r -> r.contains("=failed")) ? 1 : 0;
            lateBoth += sync.late().isEmpty() ? 0 : 1;
        }
        assertTrue(crashes > SEEDS / 10, "few runs crashed: " + crashes);
        assertTrue(failures > SEEDS / 2, "few runs had failed calls: " + failures);
        assertTrue(lateBoth > SEEDS / 10, "few runs had late records downstream: " + lateBoth);
    }

    /**
     * Runs {@code input} through {@code process} (no {@code answers}) or {@code processAsync}, answered with
     * {@code answers}' draws, maybe crashing once.
     */
    private static Out run(List<In> input, @Nullable Random answers) throws IOException {
        ScriptedService service = new ScriptedService(true);
        StreamsBuilder builder = new StreamsBuilder();
        GroupedStream<String, String> grouped = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(DELAY)))
                .groupByKey();
        Materialized<String, String> state = Materialized.<String, String>as("state")
                .withKeySerde(Serdes.String())
                .withValueSerde(Serdes.String());
        int capacity = answers == null ? 0 : 1 + answers.nextInt(8);
        EventStream<String, String> processed;
        if (answers == null) {
            processed = grouped.process(Synchronous::new, state);
        } else {
            Async<String, String> async = Async.<String, String>as("work")
                    .withCapacity(capacity)
                    .withCapacityPerKey(1 + answers.nextInt(capacity));
            processed = grouped.<String, String, String>processAsync(
                    () -> new Asynchronous(service), answers.nextBoolean() ? async : async.inPartitionOrder(), state);
        }
        processed.to("out", Produced.with(Serdes.String(), Serdes.String()));
        processed
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW)))
                .lateRecordsTo("late")
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        Path dir = Files.createTempDirectory("weir-process-async-property-");
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults()
                        .withApplicationId("process-async-property")
                        .withStateDir(dir))) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            boolean crashed = AsyncRuns.pipe(driver, in, input, service, answers, capacity);
            driver.endOfInput();
            List<String> results = new ArrayList<>();
            driver.output("out", Serdes.String(), Serdes.String())
                    .readAll()
                    .forEach(r -> results.add(r.key() + "=" + r.value()));
            Set<String> late = new HashSet<>();
            driver.output("late", Serdes.String(), Serdes.String())
                    .readAll()
                    .forEach(r -> late.add(r.key() + "=" + r.value()));
            return new Out(results, late, crashed);
        } finally {
            TempDirs.deleteRecursively(dir);
        }
    }
}
