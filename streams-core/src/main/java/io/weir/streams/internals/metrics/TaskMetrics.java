package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric.Level;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * A task's metrics: its own ({@link #taskGauge}, {@link #taskTimer}) and those of its operators and
 * stores, named by (owner, metric), the owner being the operator's or store's name ({@code task-<id>} for
 * the task's own). While the task runs on this instance they are {@linkplain #publish published} to the
 * instance's registry, tagged with the task's group; when it closes they are withdrawn.
 *
 * <p>Written by the task's stream thread only; {@link #snapshot()} may be read from any thread: counters
 * and timers are volatile, and gauges read volatile fields of their owners.
 */
public final class TaskMetrics {

    /** One metric of the task: who reports it, and what holds its value. */
    private record Entry(String owner, Level level, String metric, Object holder) {}

    /** A counter kept by an object the task owns (a store's cache), which goes when the task closes. */
    private record Borrowed(Counter counter) {}

    private final String taskOwner;
    private final Map<String, Entry> entries = new ConcurrentSkipListMap<>();
    private @Nullable MetricGroup group;
    private final List<RegisteredMetric> published = new ArrayList<>();

    /** @param task the task's id, as {@code TaskId.toString()} writes it */
    public TaskMetrics(String task) {
        this.taskOwner = "task-" + task;
    }

    /** The counter {@code metric} of operator or store {@code owner}, created at zero on first use. */
    public Counter counter(String owner, String metric) {
        Entry e = entries.get(key(owner, metric));
        if (e == null) {
            e = add(owner, MetricCatalog.operatorOrStore(metric), metric, new Counter());
        }
        return (Counter) e.holder();
    }

    /** Registers a gauge of operator or store {@code owner}, read when metrics are read. */
    public void gauge(String owner, String metric, LongSupplier value) {
        add(owner, MetricCatalog.operatorOrStore(metric), metric, value);
    }

    /**
     * Registers a counter kept by {@code owner} itself (a store's cache): dropped when the task closes,
     * as gauges are.
     */
    public void counter(String owner, String metric, Counter counter) {
        add(owner, MetricCatalog.operatorOrStore(metric), metric, new Borrowed(counter));
    }

    /** Registers a ratio of store {@code owner}: reported like a gauge, but left out of {@link #snapshot()}, where values add up. */
    public void ratio(String owner, String metric, DoubleSupplier value) {
        add(owner, Level.STORE, metric, value);
    }

    /** Registers a gauge of the task itself. */
    public void taskGauge(String metric, LongSupplier value) {
        add(taskOwner, Level.TASK, metric, value);
    }

    /** The timer {@code metric} of the task itself, created on first use. */
    public Timer taskTimer(String metric) {
        Entry e = entries.get(key(taskOwner, metric));
        if (e == null) {
            e = add(taskOwner, Level.TASK, metric, new Timer());
        }
        return (Timer) e.holder();
    }

    private Entry add(String owner, Level level, String metric, Object holder) {
        // Checked here, not only when published: the TestDriver never publishes, and a name missing from
        // the catalog must fail its tests as it would fail the runtime.
        MetricCatalog.get(level, metric);
        Entry e = new Entry(owner, level, metric, holder);
        entries.put(key(owner, metric), e);
        MetricGroup g = group;
        if (g != null) {
            published.add(register(g, e));
        }
        return e;
    }

    /**
     * Reports every metric of the task under {@code taskGroup}, and those added later too, until {@link
     * #unpublish()}.
     */
    public void publish(MetricGroup taskGroup) {
        unpublish();
        group = taskGroup;
        entries.values().forEach(e -> published.add(register(taskGroup, e)));
    }

    /**
     * Withdraws the task's metrics from the registry and drops its gauges: called when the task closes, so a
     * task that moved away stops reporting what it no longer holds. Counters and timers stay here: they
     * count what this thread did, and go on if the task comes back to it.
     */
    public void unpublish() {
        MetricGroup g = group;
        if (g != null) {
            published.forEach(g::remove);
        }
        published.clear();
        group = null;
        entries.values().removeIf(e -> !(e.holder() instanceof Counter || e.holder() instanceof Timer));
    }

    private static RegisteredMetric register(MetricGroup taskGroup, Entry e) {
        MetricGroup g = e.level() == Level.TASK ? taskGroup : taskGroup.child(e.level(), e.owner());
        Object h = e.holder();
        if (h instanceof Counter c) {
            return g.counter(e.metric(), c);
        }
        if (h instanceof Borrowed b) {
            return g.counter(e.metric(), b.counter());
        }
        if (h instanceof Timer t) {
            return g.timer(e.metric(), t);
        }
        if (h instanceof LongSupplier s) {
            return g.gauge(e.metric(), s::getAsLong);
        }
        return g.gauge(e.metric(), (DoubleSupplier) h);
    }

    /** Every counter, timer (its count) and gauge but ratios, as {@code owner/metric -> value}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        entries.forEach((k, e) -> {
            Object h = e.holder();
            if (h instanceof Counter c) {
                out.put(k, c.value());
            } else if (h instanceof Borrowed b) {
                out.put(k, b.counter().value());
            } else if (h instanceof Timer t) {
                out.put(k, t.count());
            } else if (h instanceof LongSupplier s) {
                out.put(k, s.getAsLong());
            }
        });
        return out;
    }

    private static String key(String owner, String metric) {
        return owner + "/" + metric;
    }
}
