package io.weir.benchmarks.runtime;

import io.weir.benchmarks.runtime.TableBenchmark.HeapRow;
import io.weir.benchmarks.runtime.TableBenchmark.RestoreRow;
import io.weir.benchmarks.runtime.TableBenchmark.ThroughputRow;
import io.weir.benchmarks.runtime.TableWorkload.Engine;

import java.util.List;
import java.util.Locale;

/** {@link TableBenchmark}'s report, as markdown tables: one per phase that ran, each row an engine's median run. */
final class TableReport {

    private static final double MIB = 1024.0 * 1024.0;

    private final StringBuilder out = new StringBuilder();
    private final TableOptions options;

    TableReport(String command, TableOptions options) {
        this.options = options;
        out.append(f("$ %s%n", command));
        out.append(f(
                "Java %s, %d cores. Every app: one instance, one thread, exactly-once, commit every 100 ms, RocksDB, "
                        + "default cache; %d partitions per topic.%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), options.partitions()));
    }

    void throughput(TableWorkload workload, String recordsName, String unitsName, List<Runs<ThroughputRow>> runs) {
        out.append(f(
                "%n%s: timed from start() until the read_committed output holds every key's expected final value; "
                        + "median of %d runs.%n",
                workload.title(), options.runs()));
        out.append(f(
                "| engine | %s/s | %s/s | x Kafka Streams | wall s | CPU s | peak GC MB | output records | runs (%s/s) |%n",
                recordsName, unitsName, recordsName));
        out.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Runs<ThroughputRow> r : runs) {
            ThroughputRow m = r.median();
            out.append(f(
                    "| %s | %,.0f | %,.0f | %s | %.1f | %.1f | %s | %,d | %s |%n",
                    m.engine().id(),
                    m.recordsPerSecond(),
                    m.units() / m.seconds(),
                    ratio(m, runs),
                    m.seconds(),
                    m.cpuSeconds(),
                    mib(m.peakAfterGcBytes()),
                    m.output(),
                    r.ratesText()));
        }
    }

    void restore(TableBenchmark.Restores restores) {
        List<Runs<RestoreRow>> runs = restores.runs();
        out.append(f(
                "%nRestore of a count table of %,d keys into a fresh instance (empty state directory); restore s: first "
                        + "changelog partition's restore start to the last one's end; median of %d restores.%n",
                options.restoreKeys(), options.runs()));
        out.append(
                "| engine | records | restore s | records/s | x Kafka Streams | start to running s | CPU s | runs (records/s) |\n");
        out.append("|---|---|---|---|---|---|---|---|\n");
        for (Runs<RestoreRow> r : runs) {
            RestoreRow m = r.median();
            out.append(f(
                    "| %s | %,d | %.2f | %,.0f | %s | %.2f | %.1f | %s |%n",
                    m.engine().id(),
                    m.records(),
                    m.restoreSeconds(),
                    m.recordsPerSecond(),
                    ratio(m, runs),
                    m.startSeconds(),
                    m.cpuSeconds(),
                    r.ratesText()));
        }
        if (!restores.ceiling().isEmpty()) {
            Runs<ChangelogReader.Read> reads = Runs.of(restores.ceiling(), ChangelogReader.Read::recordsPerSecond);
            out.append(f(
                    "A bare read_committed consumer with Weir's restore-consumer settings reads Weir's changelog (%,d records) "
                            + "at %,.0f records/s (median; runs %s): the ceiling of a restore from it.%n",
                    reads.median().records(), reads.median().recordsPerSecond(), reads.ratesText()));
        }
    }

    void heap(List<HeapRow> rows) {
        out.append(f(
                "%nHeap of a count per key (at least %,d records, keys repeating); MB above the heap after a full GC "
                        + "before the run: the most left after any GC during it, and after a full GC at its end, the app still "
                        + "open.%n",
                options.heapRecords()));
        out.append(
                "| engine | keys | records | records/s | base MB | peak GC - base MB | end - base MB | state on disk MB |\n");
        out.append("|---|---|---|---|---|---|---|---|\n");
        for (HeapRow r : rows) {
            out.append(f(
                    "| %s | %,d | %,d | %,.0f | %s | %s | %s | %s |%n",
                    r.engine().id(),
                    r.keys(),
                    r.records(),
                    r.records() / r.seconds(),
                    mib(r.baseBytes()),
                    mib(r.peakAfterGcBytes() - r.baseBytes()),
                    mib(r.endBytes() - r.baseBytes()),
                    mib(r.stateBytes())));
        }
    }

    String text() {
        return out.toString();
    }

    /** {@code median}'s rate over Kafka Streams' median rate. */
    private static <R extends TableBenchmark.Measured> String ratio(R median, List<Runs<R>> runs) {
        for (Runs<R> r : runs) {
            if (r.median().engine() == Engine.KAFKA_STREAMS) {
                return f("%.2fx", median.recordsPerSecond() / r.median().recordsPerSecond());
            }
        }
        return "-";
    }

    private static String mib(long bytes) {
        return f("%,.0f", bytes / MIB);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
