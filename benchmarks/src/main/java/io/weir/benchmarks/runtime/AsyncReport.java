package io.weir.benchmarks.runtime;

import io.weir.benchmarks.runtime.AsyncBenchmark.Latency;
import io.weir.benchmarks.runtime.AsyncBenchmark.Throughput;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@link AsyncBenchmark}'s report: a throughput table (medians) and a latency table. */
final class AsyncReport {

    /** The settings a report states. */
    record Settings(int partitions, int keys, long delayMs, int capacity, int latencySeconds, int runs) {}

    private AsyncReport() {}

    static String text(String command, Settings s, Map<AsyncVariant, List<Throughput>> rows, List<Latency> latencies) {
        StringBuilder text = new StringBuilder(format(
                "a %d ms call per record, exactly-once, 1 instance, 1 thread, %d partition(s), %d keys, commit every "
                        + "100 ms, async capacity %d; median of %d runs%n%s%n%n"
                        + "| variant | records | records/s | x blocking Weir | x blocking Kafka Streams | CPU s | "
                        + "most calls open | records/s of each run |%n|---|---|---|---|---|---|---|---|%n",
                s.delayMs(), s.partitions(), s.keys(), s.capacity(), s.runs(), command));
        Runs<Throughput> weirBlocking = runs(rows, AsyncVariant.WEIR_BLOCKING);
        Runs<Throughput> ksBlocking = runs(rows, AsyncVariant.KS_BLOCKING);
        rows.forEach((variant, list) -> {
            Runs<Throughput> r = Runs.of(list, Throughput::recordsPerSecond);
            Throughput m = r.median();
            text.append(format(
                    "| %s | %,d | %,.0f | %s | %s | %.1f | %d | %s |%n",
                    variant.id(),
                    m.records(),
                    m.recordsPerSecond(),
                    ratio(m, weirBlocking),
                    ratio(m, ksBlocking),
                    m.cpuSeconds(),
                    m.mostOpen(),
                    r.ratesText()));
        });
        text.append(format(
                "%nlatency from send to read_committed visibility, %d s at a steady rate (the first second not "
                        + "counted)%n%n| variant | records/s | records counted | p50 ms | p99 ms | max ms |%n"
                        + "|---|---|---|---|---|---|%n",
                s.latencySeconds()));
        latencies.forEach(l -> text.append(format(
                "| %s | %,d | %,d | %.1f | %.1f | %.1f |%n",
                l.variant().id(), l.rate(), l.counted(), l.p50Ms(), l.p99Ms(), l.maxMs())));
        return text.toString();
    }

    private static @Nullable Runs<Throughput> runs(Map<AsyncVariant, List<Throughput>> rows, AsyncVariant variant) {
        List<Throughput> list = rows.get(variant);
        return list == null ? null : Runs.of(list, Throughput::recordsPerSecond);
    }

    private static String ratio(Throughput t, @Nullable Runs<Throughput> base) {
        return base == null
                ? "-"
                : format("%.1fx", t.recordsPerSecond() / base.median().recordsPerSecond());
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
