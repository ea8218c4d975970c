package io.weir.benchmarks;

import java.lang.management.ManagementFactory;

/**
 * Runs one variant in this JVM: a warm-up run on a fresh driver (so the JIT has compiled the hot
 * paths), then the measured run on another fresh driver, fed the whole workload. Output is drained
 * every {@value #DRAIN_EVERY} records in both runs, so that records waiting to be read do not pile
 * up in the heap.
 */
final class MeasuredRun {

    static final int DRAIN_EVERY = 10_000;

    private MeasuredRun() {}

    static RunResult run(RunSpec spec, int records, int warmup) {
        Workload workload = spec.variant().windowing().workload(records, spec.keys(), 1);
        if (warmup > 0) {
            try (Engine engine = spec.variant().open()) {
                pipe(engine, workload, Math.min(warmup, records), OutputTally.counting());
            }
        }
        long baseline = HeapMonitor.liveBytes();
        OutputTally tally = OutputTally.counting();
        try (Engine engine = spec.variant().open()) {
            double seconds;
            double cpuSeconds;
            long peakUsed;
            long peakAfterGc;
            try (HeapMonitor monitor = new HeapMonitor()) {
                long cpuStart = processCpuNanos();
                long start = System.nanoTime();
                pipe(engine, workload, records, tally);
                seconds = (System.nanoTime() - start) / 1e9;
                cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
                peakUsed = monitor.peakUsedBytes();
                peakAfterGc = monitor.peakAfterGcBytes();
            }
            long liveEnd = HeapMonitor.liveBytes();
            return new RunResult(
                    spec,
                    records,
                    seconds,
                    cpuSeconds,
                    baseline,
                    peakUsed,
                    peakAfterGc,
                    liveEnd,
                    tally.results(),
                    tally.changelogRecords(),
                    tally.changelogBytes(),
                    engine.windowMetrics());
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Pipes the first {@code n} records of {@code workload}, draining into {@code tally} as it goes and at the end. */
    static void pipe(Engine engine, Workload workload, int n, OutputTally tally) {
        for (int i = 0; i < n; i++) {
            engine.pipe(workload.key(i), workload.eventTime(i), workload.arrivalTime(i));
            if ((i + 1) % DRAIN_EVERY == 0) {
                engine.drain(tally);
            }
        }
        engine.drain(tally);
    }
}
