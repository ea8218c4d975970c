package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric;

import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/** A metric as the registry holds it: its definition, its tags, and where its value is read. */
public final class RegisteredMetric implements WeirMetric {

    /** What identifies a metric in its registry: two metrics with the same id are the same metric. */
    record Id(Level level, String name, Map<String, String> tags) {}

    private final MetricDefinition definition;
    private final Map<String, String> tags;
    private final DoubleSupplier value;
    private final LongSupplier totalNanos;
    private final LongSupplier maxNanos;

    private RegisteredMetric(
            MetricDefinition definition,
            Map<String, String> tags,
            DoubleSupplier value,
            LongSupplier totalNanos,
            LongSupplier maxNanos) {
        this.definition = definition;
        this.tags = tags;
        this.value = value;
        this.totalNanos = totalNanos;
        this.maxNanos = maxNanos;
    }

    static RegisteredMetric counter(MetricDefinition d, Map<String, String> tags, Counter counter) {
        return new RegisteredMetric(d, tags, counter::value, () -> 0, () -> 0);
    }

    static RegisteredMetric gauge(MetricDefinition d, Map<String, String> tags, DoubleSupplier gauge) {
        return new RegisteredMetric(d, tags, gauge, () -> 0, () -> 0);
    }

    static RegisteredMetric timer(MetricDefinition d, Map<String, String> tags, Timer timer) {
        return new RegisteredMetric(d, tags, timer::count, timer::totalNanos, timer::maxNanos);
    }

    Id id() {
        return new Id(definition.level(), definition.name(), tags);
    }

    @Override
    public String name() {
        return definition.name();
    }

    @Override
    public Level level() {
        return definition.level();
    }

    @Override
    public Kind kind() {
        return definition.kind();
    }

    @Override
    public Map<String, String> tags() {
        return tags;
    }

    @Override
    public String description() {
        return definition.description();
    }

    @Override
    public double value() {
        return value.getAsDouble();
    }

    @Override
    public long totalTimeNanos() {
        return totalNanos.getAsLong();
    }

    @Override
    public long maxTimeNanos() {
        return maxNanos.getAsLong();
    }

    @Override
    public String toString() {
        return definition.level() + " " + definition.name() + tags;
    }
}
