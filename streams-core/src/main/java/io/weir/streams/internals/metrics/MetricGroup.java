package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric.Level;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * The tags of one place in an instance (the instance, a thread, a task, an operator or a store) and the
 * registry its metrics go to. Immutable; {@link #child} goes one level down. Each metric's definition is
 * looked up in the {@link MetricCatalog} by this group's level and the metric's name.
 */
public final class MetricGroup {

    private final MetricsRegistry registry;
    private final Level level;
    private final Map<String, String> tags;

    private MetricGroup(MetricsRegistry registry, Level level, Map<String, String> tags) {
        this.registry = registry;
        this.level = level;
        this.tags = tags;
    }

    /** The instance's group: tagged {@code application=}{@code applicationId} and {@code client=}{@code client}. */
    public static MetricGroup application(MetricsRegistry registry, String applicationId, String client) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("application", applicationId);
        tags.put("client", client);
        return new MetricGroup(registry, Level.APPLICATION, Collections.unmodifiableMap(tags));
    }

    /** The group one level down: {@code thread}, {@code task}, {@code node} or {@code store}. */
    public MetricGroup child(Level child, String name) {
        boolean allowed = switch (child) {
            case APPLICATION -> false;
            case THREAD -> level == Level.APPLICATION;
            case TASK -> level == Level.THREAD;
            case NODE, STORE -> level == Level.TASK;
        };
        if (!allowed) {
            throw new IllegalArgumentException("A " + child + " group cannot belong to a " + level + " group");
        }
        Map<String, String> childTags = new LinkedHashMap<>(tags);
        childTags.put(child.name().toLowerCase(java.util.Locale.ROOT), name);
        return new MetricGroup(registry, child, Collections.unmodifiableMap(childTags));
    }

    public Level level() {
        return level;
    }

    public Map<String, String> tags() {
        return tags;
    }

    public RegisteredMetric counter(String name, Counter counter) {
        return add(RegisteredMetric.counter(MetricCatalog.get(level, name), tags, counter));
    }

    public RegisteredMetric gauge(String name, DoubleSupplier value) {
        return add(RegisteredMetric.gauge(MetricCatalog.get(level, name), tags, value));
    }

    public RegisteredMetric timer(String name, Timer timer) {
        return add(RegisteredMetric.timer(MetricCatalog.get(level, name), tags, timer));
    }

    public void remove(RegisteredMetric metric) {
        registry.remove(metric);
    }

    private RegisteredMetric add(RegisteredMetric metric) {
        registry.add(metric);
        return metric;
    }
}
