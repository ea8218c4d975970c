package io.weir.streams.internals.metrics;

import io.weir.streams.MetricsListener;
import io.weir.streams.WeirMetric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metrics an instance reports now, and the listeners that follow them (JMX, a metrics library). A
 * listener added late is first told of every metric present, so it never misses one; all of it happens
 * under this registry's lock, so a listener sees adds and removes in the order they happened. Thread-safe.
 */
public final class MetricsRegistry {

    private static final Logger log = LoggerFactory.getLogger(MetricsRegistry.class);

    private final Map<RegisteredMetric.Id, RegisteredMetric> metrics = new LinkedHashMap<>();
    private final List<MetricsListener> listeners = new ArrayList<>();

    /** Adds {@code metric}, replacing (and removing, for the listeners) one with the same id. */
    public synchronized void add(RegisteredMetric metric) {
        RegisteredMetric old = metrics.put(metric.id(), metric);
        if (old != null) {
            listeners.forEach(l -> notify(l, old, false));
        }
        listeners.forEach(l -> notify(l, metric, true));
    }

    /** Removes {@code metric} if it is still registered (not replaced since). */
    public synchronized void remove(RegisteredMetric metric) {
        if (metrics.remove(metric.id(), metric)) {
            listeners.forEach(l -> notify(l, metric, false));
        }
    }

    public synchronized List<WeirMetric> all() {
        return List.copyOf(metrics.values());
    }

    /** Adds {@code listener} and tells it of every metric present. */
    public synchronized void addListener(MetricsListener listener) {
        listeners.add(listener);
        metrics.values().forEach(m -> notify(listener, m, true));
    }

    /** Stops telling {@code listener}; it is not told of the metrics' removal. */
    public synchronized void removeListener(MetricsListener listener) {
        listeners.remove(listener);
    }

    private static void notify(MetricsListener listener, WeirMetric metric, boolean added) {
        try {
            if (added) {
                listener.metricAdded(metric);
            } else {
                listener.metricRemoved(metric);
            }
        } catch (RuntimeException e) {
            log.warn("Metrics listener {} failed on {}", listener.getClass().getName(), metric, e);
        }
    }
}
