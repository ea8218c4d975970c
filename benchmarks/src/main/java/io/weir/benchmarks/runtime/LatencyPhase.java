package io.weir.benchmarks.runtime;

import io.weir.benchmarks.OutputTally;
import io.weir.benchmarks.OutputTally.WindowKey;
import io.weir.benchmarks.Workload;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * End-to-end latency at a steady rate, each app in turn on topics of its own: the app starts and gets
 * its partitions, a {@code read_committed} {@link OutputWatcher} starts on its output, then
 * {@code --rate} records/s are produced for {@code --duration} s ({@link PacedLoad}) over {@code --keys}
 * keys, 5% of them out of order by up to 30 s. Once the app has committed the end of its input and
 * the watcher has read the end of the output, each output's latency is its visible time less its due
 * time ({@link DueTimes}).
 *
 * <p>Event time follows the wall clock less a constant shift under one minute, chosen so that a
 * window's results come due 90% into the run: with 1-minute windows and a 30 s delay, a run of 60 s
 * sees exactly one window close, and without the shift it might see none.
 *
 * <p>A run that fails is run once more on topics of its own ({@link RetryOnce}) and listed under the
 * report.
 */
final class LatencyPhase {

    /**
     * @param outputs     output records read
     * @param undue       outputs that no input made due (none, when the app is right)
     * @param windowsDue  once-per-window apps: the (key, window) results the input made due; -1 for update apps
     * @param windowsSeen distinct (key, window) pairs in the output
     */
    record Row(
            AppKind kind,
            int produced,
            double loadSeconds,
            long outputs,
            long undue,
            long windowsDue,
            long windowsSeen,
            double p50Ms,
            double p99Ms,
            double maxMs,
            OutputCheck check) {}

    private static final Logger log = LoggerFactory.getLogger(LatencyPhase.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final double CLOSE_AT = 0.9;

    private LatencyPhase() {}

    static List<Row> run(BenchContext context) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (AppKind kind : context.options().engines()) {
            rows.add(context.retry()
                    .run(
                            "latency run of " + kind.id(),
                            attempt -> runOnce(context, kind, context.name("lat-" + kind.id() + "-a" + attempt))));
        }
        return rows;
    }

    /** One run of {@code kind} as {@code appId}, on input and output topics of its own. */
    private static Row runOnce(BenchContext context, AppKind kind, String appId)
            throws TimeoutException, InterruptedException {
        RuntimeOptions options = context.options();
        String input = context.topic(appId + "-in");
        String output = context.topic(appId + "-out");
        log.info("Latency: {} at {} records/s for {} s", kind.id(), options.rate(), options.durationSeconds());
        PacedLoad load;
        List<OutputWatcher.Seen> seen;
        try (StreamingApp app = kind.open(context.setup(appId, input, output, new RestoreProgress()))) {
            app.start();
            app.awaitRunning(TIMEOUT);
            try (OutputWatcher watcher = new OutputWatcher(context.bootstrap(), output, options.partitions())) {
                int records = options.rate() * options.durationSeconds();
                Workload workload = Workload.generate(
                        records, options.keys(), 1000.0 / options.rate(), firstEventTime(options.durationSeconds()));
                load = PacedLoad.run(context.bootstrap(), input, workload);
                context.progress()
                        .awaitCommitted(
                                app, appId, context.progress().committedEnd(input, options.partitions()), TIMEOUT);
                Map<TopicPartition, Long> outputEnd = context.progress().committedEnd(output, options.partitions());
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (!watcher.reached(outputEnd)) {
                    if (System.nanoTime() > deadline) {
                        throw new TimeoutException(
                                "The output of " + appId + " was not read to its end within " + TIMEOUT);
                    }
                    Thread.sleep(20);
                }
                seen = watcher.seen();
            }
        }
        Row row = measure(kind, output, load, seen);
        log.info(
                "Latency: {} p50 {} ms, p99 {} ms over {} outputs", kind.id(), row.p50Ms(), row.p99Ms(), row.outputs());
        return row;
    }

    /**
     * The event time of the first record: the wall clock less a shift in {@code [0, 60 s)} such that
     * the record {@code CLOSE_AT} of the way into the run moves event time to a window's end + 30 s.
     */
    static long firstEventTime(int durationSeconds) {
        long closeAt = Math.round(CLOSE_AT * durationSeconds * 1000);
        long now = System.currentTimeMillis();
        long windowEnd = BenchContext.minuteFloor(now - Workload.MAX_DELAY_MS + closeAt);
        return windowEnd + Workload.MAX_DELAY_MS - closeAt;
    }

    private static Row measure(AppKind kind, String output, PacedLoad load, List<OutputWatcher.Seen> seen) {
        DueTimes due = new DueTimes(load);
        OutputTally tally = OutputTally.decoding();
        long[] latencies = new long[seen.size()];
        int n = 0;
        long undue = 0;
        for (OutputWatcher.Seen s : seen) {
            AppKind.WindowCount c = kind.decode(output, s.key(), s.value());
            tally.result(c.key(), c.windowStart(), c.count());
            WindowKey window = new WindowKey(c.key(), c.windowStart());
            long dueNanos = kind.oncePerWindow() ? due.windowDue(window) : due.updateDue(window, c.count());
            if (dueNanos < 0) {
                undue++;
            } else {
                latencies[n++] = s.visibleNanos() - dueNanos;
            }
        }
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return new Row(
                kind,
                load.workload().size(),
                load.seconds(),
                seen.size(),
                undue,
                kind.oncePerWindow() ? due.windowsDue() : -1,
                tally.latestCounts().size(),
                percentileMs(sorted, 0.50),
                percentileMs(sorted, 0.99),
                n == 0 ? Double.NaN : sorted[n - 1] / 1e6,
                OutputCheck.of(kind, tally, due.expectedCounts()));
    }

    /** The nearest-rank percentile {@code q} of {@code sorted} nanoseconds, in ms; NaN if empty. */
    static double percentileMs(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }
}
