package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.kafka.TempDirs;
import io.weir.streams.test.reference.AsyncRuns.In;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code mapValuesAsync} against {@code mapValues} doing the same mapping, on random out-of-order streams:
 * the calls are answered in a random order and at random later steps, and some runs crash between commits.
 * The synchronous run is what the {@link ReferenceModel} checks elsewhere; against it, the async run must
 * <ul>
 *   <li>forward each result exactly once, and each key's results in the order of its input;</li>
 *   <li>make no record late by waiting: a tumbling-window count downstream sends to its late topic only
 *       records the synchronous run sent there too (the held records hold its watermark);</li>
 *   <li>count, in each window, exactly the records of that window it did not send to the late topic.</li>
 * </ul>
 */
class AsyncPropertyTest {

    private static final int SEEDS = 150;
    private static final long WINDOW = 50;
    private static final Duration DELAY = Duration.ofMillis(20);

    /** What a run wrote: results in output order, late values, each window's last count; and if it crashed. */
    private record Out(List<String> results, Set<String> late, Map<String, Long> counts, boolean crashed) {}

    @Test
    void asyncResultsEqualTheSynchronousOnesAndNoneIsMadeLate() throws IOException {
        int crashes = 0;
        int lateBoth = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            List<In> input = AsyncRuns.generate(new Random(seed));
            Out sync = run(input, null);
            Random answers = new Random(seed * 31 + 7);
            Out async = run(input, answers);
            String context = "seed " + seed + ", input " + input;
            assertEquals(
                    AsyncRuns.byKey(sync.results()),
                    AsyncRuns.byKey(async.results()),
                    "each key's results, once, in order: " + context);
            Set<String> madeLate = new HashSet<>(async.late());
            madeLate.removeAll(sync.late());
            if (!madeLate.isEmpty()) {
                fail("late only because of waiting for calls: " + madeLate + "; " + context);
            }
            assertEquals(countsOf(input, async.late()), async.counts(), "windows count their records: " + context);
            assertEquals(countsOf(input, sync.late()), sync.counts(), "windows count their records: " + context);
            lateBoth += sync.late().isEmpty() ? 0 : 1;
            crashes += async.crashed() ? 1 : 0;
        }
        assertTrue(lateBoth > SEEDS / 10, "few streams had late records: " + lateBoth);
        assertTrue(crashes > SEEDS / 10, "few runs crashed: " + crashes);
    }

    /**
     * Runs {@code input} through {@code mapValues} (no {@code answers}) or {@code mapValuesAsync}, answered
     * with {@code answers}' draws, maybe crashing once.
     */
    private static Out run(List<In> input, @Nullable Random answers) throws IOException {
        ScriptedService service = new ScriptedService(false);
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> source = builder.stream(
                "in",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(DELAY)));
        int capacity = answers == null ? 0 : 1 + answers.nextInt(8);
        EventStream<String, String> mapped = answers == null
                ? source.mapValues(ScriptedService::answerFor)
                : source.mapValuesAsync(
                        service::call, Async.<String, String>as("call").withCapacity(capacity));
        mapped.to("out", Produced.with(Serdes.String(), Serdes.String()));
        mapped.groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW)))
                .lateRecordsTo("late")
                .count()
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        Path dir = Files.createTempDirectory("weir-async-property-");
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("async-property").withStateDir(dir))) {
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
                    .forEach(r -> late.add(r.value().toLowerCase(Locale.ROOT)));
            Map<String, Long> counts = new TreeMap<>();
            driver.output("counts", WindowedSerdes.string(), Serdes.Long())
                    .readAll()
                    .forEach(r -> counts.put(window(r.key()), r.value()));
            return new Out(results, late, counts, crashed);
        } finally {
            TempDirs.deleteRecursively(dir);
        }
    }

    private static String window(Windowed<String> w) {
        return w.key() + "@" + w.window().start();
    }

    /** Each window's count of the records of {@code input} not in {@code late}. */
    private static Map<String, Long> countsOf(List<In> input, Set<String> late) {
        Map<String, Long> counts = new TreeMap<>();
        for (In r : input) {
            if (!late.contains(r.value())) {
                counts.merge(r.key() + "@" + Math.floorDiv(r.time(), WINDOW) * WINDOW, 1L, Long::sum);
            }
        }
        return counts;
    }
}
