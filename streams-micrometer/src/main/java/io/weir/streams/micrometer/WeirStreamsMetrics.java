package io.weir.streams.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.streams.MetricsListener;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirStreams;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Binds the metrics of a {@link WeirStreams} instance to a Micrometer {@link MeterRegistry}, and keeps
 * them bound as tasks come and go: a meter is added when Weir adds its metric and removed from the
 * registry when the task it belongs to moves away.
 *
 * <p>Meter names are {@code weir.<level>.<metric>}, the metric's hyphens turned into dots: {@code
 * records-consumed} of an operator is {@code weir.node.records.consumed}, which Prometheus exposes as
 * {@code weir_node_records_consumed_total}. Tags are the metric's: {@code application}, {@code client},
 * and as the level goes, {@code thread}, {@code task}, {@code node} or {@code store}, plus any given here.
 * A counter becomes a {@link FunctionCounter}, a gauge a {@link Gauge}, and a timer a {@link
 * FunctionTimer} (count and total time) with a gauge {@code <name>.max} in seconds (the longest event of
 * the last 30 to 60 seconds).
 *
 * <pre>{@code
 * WeirStreams streams = new WeirStreams(topology, config);
 * WeirStreamsMetrics metrics = new WeirStreamsMetrics(streams);
 * metrics.bindTo(registry);
 * streams.start();
 * // ...
 * metrics.close(); // removes the meters it bound
 * streams.close();
 * }</pre>
 *
 * <p>Bind before or after {@code start()}: the metrics present are bound at once. One binder binds to
 * one registry. Thread-safe.
 */
public final class WeirStreamsMetrics implements MeterBinder, AutoCloseable {

    private final WeirStreams streams;
    private final Tags extraTags;
    private final IdentityHashMap<WeirMetric, List<Meter>> meters = new IdentityHashMap<>();
    private @Nullable MeterRegistry registry;

    private final MetricsListener listener = new MetricsListener() {
        @Override
        public void metricAdded(WeirMetric metric) {
            add(metric);
        }

        @Override
        public void metricRemoved(WeirMetric metric) {
            remove(metric);
        }
    };

    /**
     * A binder of {@code streams}' metrics, tagged with Weir's tags only; not bound until {@link #bindTo}.
     *
     * @param streams the instance whose metrics to bind
     */
    public WeirStreamsMetrics(WeirStreams streams) {
        this(streams, Tags.empty());
    }

    /**
     * A binder of {@code streams}' metrics, with {@code extraTags} on every meter; not bound until {@link
     * #bindTo}.
     *
     * @param streams the instance whose metrics to bind
     * @param extraTags tags added to every meter, beside Weir's own
     */
    public WeirStreamsMetrics(WeirStreams streams, Iterable<Tag> extraTags) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.extraTags = Tags.of(Objects.requireNonNull(extraTags, "extraTags"));
    }

    /**
     * Binds every metric of the instance to {@code registry}, and those it adds later, until {@link
     * #close()}.
     *
     * @throws IllegalStateException if this binder is bound to a registry already
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        synchronized (this) {
            if (this.registry != null) {
                throw new IllegalStateException("This WeirStreamsMetrics is bound to a registry already");
            }
            this.registry = registry;
        }
        streams.addMetricsListener(listener);
    }

    /**
     * The Micrometer name of {@code metric}: {@code weir.<level>.<name>}, hyphens turned into dots.
     *
     * @param metric a metric of a Weir instance
     * @return the meter name, e.g. {@code weir.node.records.consumed}
     */
    public static String meterName(WeirMetric metric) {
        return "weir." + metric.level().name().toLowerCase(Locale.ROOT) + "."
                + metric.name().replace('-', '.');
    }

    private synchronized void add(WeirMetric metric) {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        String name = meterName(metric);
        Tags tags = extraTags;
        for (Map.Entry<String, String> tag : metric.tags().entrySet()) {
            tags = tags.and(tag.getKey(), tag.getValue());
        }
        List<Meter> bound = new ArrayList<>(2);
        switch (metric.kind()) {
            case COUNTER ->
                bound.add(FunctionCounter.builder(name, metric, WeirMetric::value)
                        .description(metric.description())
                        .tags(tags)
                        .register(r));
            case GAUGE ->
                bound.add(Gauge.builder(name, metric, WeirMetric::value)
                        .description(metric.description())
                        .tags(tags)
                        .register(r));
            case TIMER -> {
                bound.add(FunctionTimer.builder(
                                name,
                                metric,
                                m -> (long) m.value(),
                                m -> (double) m.totalTimeNanos(),
                                TimeUnit.NANOSECONDS)
                        .description(metric.description())
                        .tags(tags)
                        .register(r));
                bound.add(Gauge.builder(name + ".max", metric, m -> m.maxTimeNanos() / 1e9)
                        .description("The longest of the last 30 to 60 s: " + metric.description())
                        .baseUnit("seconds")
                        .tags(tags)
                        .register(r));
            }
        }
        meters.put(metric, bound);
    }

    private synchronized void remove(WeirMetric metric) {
        List<Meter> bound = meters.remove(metric);
        MeterRegistry r = registry;
        if (bound != null && r != null) {
            bound.forEach(r::remove);
        }
    }

    /** Stops following the instance and removes every meter this binder added from the registry. */
    @Override
    public void close() {
        streams.removeMetricsListener(listener);
        synchronized (this) {
            MeterRegistry r = registry;
            if (r != null) {
                meters.values().forEach(bound -> bound.forEach(r::remove));
            }
            meters.clear();
        }
    }
}
