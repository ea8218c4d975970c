package io.weir.benchmarks.runtime;

import io.weir.benchmarks.HeapMonitor;
import io.weir.benchmarks.OutputTally;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * First each app runs once over a small warm-up input (untimed: the JIT compiles the code every app
 * shares, Kafka's clients, before any of them is timed). Then each app in turn, as a fresh instance,
 * over the same pre-loaded input: timed from {@code start()}
 * until its group's committed offsets reach the end of the input. Its output is then read and checked
 * against the input (not timed). With {@code --repeats} the round of timed runs is repeated and each
 * app's median run is reported. A pre-load, warm-up or timed run that fails is run once more under
 * fresh names ({@link RetryOnce}) and listed under the report.
 */
final class ThroughputPhase {

    /**
     * @param seconds    wall time from start until the committed offsets reached the end of the input
     * @param cpuSeconds CPU time this JVM used meanwhile, every thread
     */
    record Row(
            AppKind kind,
            int records,
            double seconds,
            double cpuSeconds,
            long baseBytes,
            long peakUsedBytes,
            long peakAfterGcBytes,
            OutputCheck check) {

        double recordsPerSecond() {
            return records / seconds;
        }

        double cpuSecondsPerMillion() {
            return cpuSeconds / (records / 1e6);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ThroughputPhase.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private ThroughputPhase() {}

    static List<Runs<Row>> run(BenchContext context) throws Exception {
        if (context.options().warmup() > 0) {
            BenchContext.LoadedInput warmup = context.warmupInput();
            for (AppKind kind : context.options().engines()) {
                log.info("Throughput: {} warms up on {} records", kind.id(), warmup.records());
                context.retry()
                        .run(
                                "throughput warm-up of " + kind.id(),
                                attempt -> context.runToEnd(
                                        kind, context.name("warmup-" + kind.id() + "-a" + attempt), warmup, TIMEOUT));
            }
        }
        BenchContext.LoadedInput input = context.throughputInput();
        Map<AppKind, List<Row>> runs = new LinkedHashMap<>();
        int repeats = context.options().repeats();
        for (int round = 1; round <= repeats; round++) {
            for (AppKind kind : context.options().engines()) {
                String appId = context.name("tp-" + kind.id() + (repeats > 1 ? "-r" + round : ""));
                Row row = context.retry()
                        .run(
                                "throughput run " + round + " of " + kind.id(),
                                attempt -> runOnce(context, kind, appId + "-a" + attempt, input));
                runs.computeIfAbsent(kind, k -> new ArrayList<>()).add(row);
            }
        }
        List<Runs<Row>> rows = new ArrayList<>();
        runs.values().forEach(r -> rows.add(Runs.of(r, Row::recordsPerSecond)));
        return rows;
    }

    private static Row runOnce(BenchContext context, AppKind kind, String appId, BenchContext.LoadedInput input)
            throws TimeoutException, InterruptedException {
        String output = context.topic(appId + "-out");
        AppSetup setup = context.setup(appId, input.topic(), output, new RestoreProgress());
        long base = HeapMonitor.liveBytes();
        log.info("Throughput: {} over {} records", kind.id(), input.records());
        double seconds;
        double cpuSeconds;
        long peakUsed;
        long peakAfterGc;
        try (StreamingApp app = kind.open(setup);
                HeapMonitor heap = new HeapMonitor()) {
            long cpu = BenchContext.processCpuNanos();
            long start = System.nanoTime();
            app.start();
            long end = context.progress().awaitCommitted(app, appId, input.ends(), TIMEOUT);
            cpuSeconds = (BenchContext.processCpuNanos() - cpu) / 1e9;
            seconds = (end - start) / 1e9;
            peakUsed = heap.peakUsedBytes();
            peakAfterGc = heap.peakAfterGcBytes();
        }
        context.windowStorePopulated(kind, appId);
        OutputTally out = OutputReader.read(context.bootstrap(), output, kind);
        Row row = new Row(
                kind,
                input.records(),
                seconds,
                cpuSeconds,
                base,
                peakUsed,
                peakAfterGc,
                OutputCheck.of(kind, out, input.expected()));
        log.info("Throughput: {} {} records/s, output {}", kind.id(), Math.round(row.recordsPerSecond()), row.check());
        return row;
    }
}
