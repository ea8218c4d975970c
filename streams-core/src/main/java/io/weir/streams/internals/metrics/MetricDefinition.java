package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric;

/** What a metric is: its name, level and kind, and a sentence saying what it measures. */
public record MetricDefinition(String name, WeirMetric.Level level, WeirMetric.Kind kind, String description) {}
