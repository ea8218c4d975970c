package io.weir.streams.internals.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;

/**
 * A task's counters and gauges, named by (processor node, metric). Written by the task's thread only;
 * {@link #snapshot()} may be read from any thread: counters are volatile, and gauges read volatile fields of their owners.
 */
public final class TaskMetrics {

    /** A monotonically increasing count. */
    // One writer (the task's thread): volatile only publishes each count to the threads reading metrics.
    @SuppressWarnings("NonAtomicVolatileUpdate")
    public static final class Counter {
        private volatile long value;

        public void increment() {
            value++;
        }

        public void increment(long n) {
            value += n;
        }

        public long value() {
            return value;
        }
    }

    private final Map<String, Counter> counters = new ConcurrentSkipListMap<>();
    private final Map<String, LongSupplier> gauges = new ConcurrentSkipListMap<>();

    /** The counter {@code metric} of {@code node}, created at zero on first use. */
    public Counter counter(String node, String metric) {
        return counters.computeIfAbsent(key(node, metric), k -> new Counter());
    }

    /** Registers a gauge read at snapshot time. */
    public void gauge(String node, String metric, LongSupplier value) {
        gauges.put(key(node, metric), value);
    }

    /**
     * Removes every gauge: called when the task closes, so a task that moved away stops reporting what
     * it no longer holds. Counters stay: they count what this instance did.
     */
    public void clearGauges() {
        gauges.clear();
    }

    /** Every counter and gauge as {@code node/metric -> value}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, c) -> out.put(k, c.value()));
        gauges.forEach((k, g) -> out.put(k, g.getAsLong()));
        return out;
    }

    private static String key(String node, String metric) {
        return node + "/" + metric;
    }
}
