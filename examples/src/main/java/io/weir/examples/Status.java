package io.weir.examples;

import io.weir.streams.WeirMetrics;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * The status line {@link ExampleRunner} prints every few seconds, from the application's metrics: input
 * records per second since the last line, the watermark lag (the largest over the instance's tasks), late
 * records added to windows and dropped, records written to late-data side outputs, open windows, and the
 * output records per shown topic.
 */
final class Status {

    private final Example example;
    private final PrintStream out;
    private final Map<String, Long> outputs = new TreeMap<>();
    private long lastConsumed;
    private long lastAt;

    Status(Example example, PrintStream out) {
        this.example = example;
        this.out = out;
    }

    void output(String topic) {
        outputs.merge(topic, 1L, Long::sum);
    }

    /** @param hidden per topic, the output lines not shown since the last status line */
    void print(long elapsedMs, Map<String, Long> metrics, Map<String, Integer> hidden) {
        long consumed = example.inputs().stream()
                .mapToLong(t -> metrics.getOrDefault("source:" + t + "/" + WeirMetrics.RECORDS_CONSUMED, 0L))
                .sum();
        long rate = elapsedMs > lastAt ? (consumed - lastConsumed) * 1000 / (elapsedMs - lastAt) : 0;
        lastConsumed = consumed;
        lastAt = elapsedMs;
        long lag = metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/" + WeirMetrics.WATERMARK_LAG_MS))
                .mapToLong(Map.Entry::getValue)
                .max()
                .orElse(-1);
        StringBuilder line = new StringBuilder(String.format(
                "[%4ds] in %,d/s | watermark lag %s | late added %,d | dropped %,d"
                        + " | side output %,d | open windows %,d",
                elapsedMs / 1000,
                rate,
                lag < 0 ? "-" : String.format("%.1f s", lag / 1000.0),
                sum(metrics, WeirMetrics.LATE_RECORDS_ADDED),
                sum(metrics, WeirMetrics.LATE_RECORDS_DROPPED),
                sum(metrics, WeirMetrics.SIDE_OUTPUT_RECORDS),
                sum(metrics, WeirMetrics.OPEN_WINDOWS)));
        example.printedTopics().forEach(t -> line.append(String.format(" | %s %,d", t, outputs.getOrDefault(t, 0L))));
        hidden.forEach((t, n) -> line.append(String.format(" (%,d more %s not shown)", n, t)));
        out.println(line);
    }

    private static long sum(Map<String, Long> metrics, String metric) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/" + metric))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }
}
