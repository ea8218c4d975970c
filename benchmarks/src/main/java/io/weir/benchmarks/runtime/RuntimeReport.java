package io.weir.benchmarks.runtime;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The runtime benchmark's report: the command and setting, then one table per phase that ran. */
final class RuntimeReport {

    private static final double MIB = 1024.0 * 1024.0;

    private RuntimeReport() {}

    static String format(
            String command,
            String broker,
            RuntimeOptions o,
            List<Runs<ThroughputPhase.Row>> throughputRuns,
            List<LatencyPhase.Row> latency,
            List<Runs<RestorePhase.Row>> restoreRuns) {
        List<ThroughputPhase.Row> throughput =
                throughputRuns.stream().map(Runs::median).toList();
        List<RestorePhase.Row> restore = restoreRuns.stream().map(Runs::median).toList();
        StringBuilder out = new StringBuilder();
        out.append(f("$ %s%n", command));
        out.append(f(
                "Broker: %s. Java %s, %d cores. Every app: one instance, one thread, exactly-once, commit every 100 ms.%n",
                broker, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        if (!throughput.isEmpty()) {
            out.append(f(
                    "%nThroughput: %,d pre-loaded records over %d partitions, %,d keys, %,d per minute of event time, "
                            + "%.0f%% out of order by up to 30 s;%ntimed from start() until the group's committed offsets reach the end "
                            + "of the input.%n",
                    o.records(), o.partitions(), o.keys(), o.perMinute(), 5.0));
            String row = "%-12s %-15s %10s %9s %10s %9s %7s %7s %9s %8s %8s %10s %10s %9s %8s%n";
            out.append(f(
                    row,
                    "engine",
                    "emits",
                    "records/s",
                    "x ks-close",
                    "x ks-update",
                    "% ceiling",
                    "wall s",
                    "CPU s",
                    "CPU s/M",
                    "base MB",
                    "peak MB",
                    "peak GC MB",
                    "output",
                    "windows",
                    "check"));
            for (ThroughputPhase.Row r : throughput) {
                out.append(f(
                        row,
                        r.kind().id(),
                        r.kind().emits(),
                        f("%,.0f", r.recordsPerSecond()),
                        ratio(
                                r.recordsPerSecond(),
                                throughput,
                                AppKind.KS_CLOSE,
                                ThroughputPhase.Row::recordsPerSecond),
                        ratio(
                                r.recordsPerSecond(),
                                throughput,
                                AppKind.KS_UPDATE,
                                ThroughputPhase.Row::recordsPerSecond),
                        percent(r.recordsPerSecond(), throughput),
                        f("%.1f", r.seconds()),
                        f("%.1f", r.cpuSeconds()),
                        f("%.1f", r.cpuSecondsPerMillion()),
                        mib(r.baseBytes()),
                        mib(r.peakUsedBytes()),
                        mib(r.peakAfterGcBytes()),
                        f("%,d", r.check().records()),
                        f("%,d", r.check().windows()),
                        r.check()));
            }
            out.append(
                    f("CPU s: CPU time of this JVM (the apps; the broker runs in its own process) over the timed run; "
                            + "CPU s/M: per million input records.%nbase MB: heap after a full GC before the run; peak MB: heap used, "
                            + "sampled every 50 ms; peak GC MB: the most left after a collection.%noutput: records read back with "
                            + "read_committed; check: the output against the input's own counts (see README).%n"));
            if (o.repeats() > 1) {
                out.append(f("Each row is the median of %d runs; records/s of every run, in order:%n", o.repeats()));
                throughputRuns.forEach(
                        r -> out.append(f("  %-12s %s%n", r.median().kind().id(), r.ratesText())));
            }
        }
        if (!latency.isEmpty()) {
            out.append(f(
                    "%nLatency: %,d records/s for %d s over %,d keys, %.0f%% out of order by up to 30 s; latency = visible "
                            + "to a read_committed consumer - due (see README).%n",
                    o.rate(), o.durationSeconds(), o.keys(), 5.0));
            String row = "%-12s %-15s %9s %8s %9s %9s %9s %9s %11s %9s %8s%n";
            out.append(f(
                    row,
                    "engine",
                    "emits",
                    "produced",
                    "load s",
                    "outputs",
                    "p50 ms",
                    "p99 ms",
                    "max ms",
                    "windows due",
                    "seen",
                    "check"));
            for (LatencyPhase.Row r : latency) {
                out.append(f(
                        row,
                        r.kind().id(),
                        r.kind().emits(),
                        f("%,d", r.produced()),
                        f("%.1f", r.loadSeconds()),
                        f("%,d", r.outputs()),
                        f("%.0f", r.p50Ms()),
                        f("%.0f", r.p99Ms()),
                        f("%.0f", r.maxMs()),
                        r.windowsDue() < 0 ? "-" : f("%,d", r.windowsDue()),
                        f("%,d", r.windowsSeen()),
                        r.undue() == 0 ? r.check().toString() : r.check() + ", " + r.undue() + " undue"));
            }
            out.append(f(
                    "windows due: once-per-window engines, the (key, window) results the input made due during the run; "
                            + "seen: distinct (key, window) in the output.%n"));
        }
        if (!restore.isEmpty()) {
            out.append(f(
                    "%nRestore into a fresh instance (empty state dir): window store = the throughput input's windows; "
                            + "keys store = %,d keys in one window.%n",
                    o.restoreKeys()));
            String row = "%-12s %-13s %10s %9s %10s %10s %11s %14s %7s%n";
            out.append(f(
                    row,
                    "engine",
                    "store",
                    "records",
                    "restore s",
                    "records/s",
                    "x ks-close",
                    "x ks-update",
                    "start->done s",
                    "CPU s"));
            for (RestorePhase.Row r : restore) {
                out.append(f(
                        row,
                        r.kind().id(),
                        r.store(),
                        f("%,d", r.records()),
                        f("%.1f", r.restoreSeconds()),
                        f("%,.0f", r.recordsPerSecond()),
                        restoreRatio(r, restore, AppKind.KS_CLOSE),
                        restoreRatio(r, restore, AppKind.KS_UPDATE),
                        f("%.1f", r.startSeconds()),
                        f("%.1f", r.cpuSeconds())));
            }
            out.append(
                    f("restore s: first changelog partition's restore start to the last one's end (restore listeners); "
                            + "records/s = records / restore s.%n"));
            if (o.repeats() > 1) {
                out.append(f(
                        "Each row is the median of %d restores; records/s of every restore, in order:%n", o.repeats()));
                restoreRuns.forEach(r -> out.append(f(
                        "  %-12s %-13s %s%n", r.median().kind().id(), r.median().store(), r.ratesText())));
            }
        }
        return out.toString();
    }

    private static String ratio(
            double value,
            List<ThroughputPhase.Row> rows,
            AppKind baseline,
            ToDoubleFunction<ThroughputPhase.Row> metric) {
        return rows.stream()
                .filter(r -> r.kind() == baseline)
                .findFirst()
                .map(b -> f("%.2fx", value / metric.applyAsDouble(b)))
                .orElse("-");
    }

    private static String percent(double value, List<ThroughputPhase.Row> rows) {
        return rows.stream()
                .filter(r -> r.kind() == AppKind.CEILING)
                .findFirst()
                .map(c -> f("%.0f%%", 100 * value / c.recordsPerSecond()))
                .orElse("-");
    }

    private static String restoreRatio(RestorePhase.Row r, List<RestorePhase.Row> rows, AppKind baseline) {
        Optional<RestorePhase.Row> b = rows.stream()
                .filter(x -> x.kind() == baseline && x.store().equals(r.store()))
                .findFirst();
        return b.map(x -> f("%.2fx", r.recordsPerSecond() / x.recordsPerSecond()))
                .orElse("-");
    }

    private static String mib(long bytes) {
        return f("%,.0f", bytes / MIB);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
