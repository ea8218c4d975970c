package io.weir.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The benchmark's report: what ran, then one row per run, then Weir's lateness metrics. Each row's
 * throughput is also given as a multiple of the two Kafka Streams variants with the same windowing,
 * store type and key count, when they ran.
 */
final class ResultTable {

    private static final double MIB = 1024.0 * 1024.0;
    private static final String ROW = "%-28s %-21s %9s %10s %6s %6s %11s %12s %6s %9s %8s %8s %11s %7s %10s %10s%n";

    private ResultTable() {}

    static String format(BenchmarkOptions options, List<RunResult> results) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "%,d records, 1 per ms of event and processing time; warm-up %,d records; each "
                        + "run in a fresh JVM (%s, Java %s, %d cores)%n",
                options.records(),
                options.warmup(),
                WindowedCountBenchmark.CHILD_HEAP,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors()));
        results.stream()
                .map(r -> r.spec().variant().windowing())
                .distinct()
                .forEach(w -> out.append(w.describe()).append(String.format(Locale.ROOT, "%n")));
        out.append(String.format(Locale.ROOT, "%n"));
        out.append(String.format(
                Locale.ROOT,
                ROW,
                "variant",
                "emits",
                "keys",
                "records/s",
                "wall s",
                "CPU s",
                "x KS close",
                "x KS update",
                "out/in",
                "log B/rec",
                "base MB",
                "peak MB",
                "peak GC MB",
                "end MB",
                "results",
                "changelog"));
        for (RunResult r : results) {
            out.append(String.format(
                    Locale.ROOT,
                    ROW,
                    r.spec().variant().id(),
                    r.spec().variant().emits(),
                    String.format(Locale.ROOT, "%,d", r.spec().keys()),
                    String.format(Locale.ROOT, "%,.0f", r.recordsPerSecond()),
                    String.format(Locale.ROOT, "%.1f", r.seconds()),
                    String.format(Locale.ROOT, "%.1f", r.cpuSeconds()),
                    ratio(r, results, Variant::isKafkaStreamsOnWindowClose),
                    ratio(r, results, Variant::isKafkaStreamsEveryUpdate),
                    String.format(Locale.ROOT, "%.2f", r.outputPerInput()),
                    String.format(Locale.ROOT, "%.1f", r.changelogBytesPerRecord()),
                    mib(r.baselineBytes()),
                    mib(r.peakUsedBytes()),
                    mib(r.peakAfterGcBytes()),
                    mib(r.liveEndBytes()),
                    String.format(Locale.ROOT, "%,d", r.results()),
                    String.format(Locale.ROOT, "%,d", r.changelogRecords())));
        }
        out.append(String.format(
                Locale.ROOT,
                "%n"
                        + "wall s: the measured run (records/s = records / wall s); CPU s: CPU time the JVM used meanwhile, all "
                        + "threads (GC, JIT, RocksDB's own).%n"
                        + "base MB: heap after a full GC before the measured run (the input arrays, the JVM); every heap figure "
                        + "includes it.%n"
                        + "peak MB: heap used, sampled every 50 ms (garbage included); peak GC MB: the most left after any "
                        + "collection; end MB: after a full GC at the end, driver still open.%n"
                        + "out/in: output records (retractions and tombstones included) per input record.%n"
                        + "changelog: records the driver wrote to the stores' changelog topics; log B/rec: their key and value "
                        + "bytes per input record, the logical bytes written to the stores before RocksDB's compaction.%n"
                        + "Kafka Streams' driver commits after every record, so it logs every update; Weir's logs, at each "
                        + "commit (every 100 ms of processing time), the last value of each window changed since the previous "
                        + "commit.%n"));
        for (RunResult r : results) {
            r.windowMetrics()
                    .ifPresent(m -> out.append(String.format(
                            Locale.ROOT,
                            "%s: late records added %,d (%.2f%% of the input), dropped %,d; sessions merged away %,d%n",
                            r.spec(),
                            m.lateRecordsAdded(),
                            100.0 * m.lateRecordsAdded() / r.records(),
                            m.lateRecordsDropped(),
                            m.sessionsMerged())));
        }
        return out.toString();
    }

    /** {@code r}'s throughput over that of the Kafka Streams variant {@code which} with its store and keys. */
    private static String ratio(RunResult r, List<RunResult> results, Predicate<Variant> which) {
        Optional<RunResult> baseline = results.stream()
                .filter(b -> which.test(b.spec().variant())
                        && b.spec().variant().windowing() == r.spec().variant().windowing()
                        && b.spec().variant().store() == r.spec().variant().store()
                        && b.spec().keys() == r.spec().keys())
                .findFirst();
        return baseline.map(b -> String.format(Locale.ROOT, "%.2fx", r.recordsPerSecond() / b.recordsPerSecond()))
                .orElse("-");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,.0f", bytes / MIB);
    }
}
