/**
 * Weir's metrics in Micrometer: {@link io.weir.streams.micrometer.WeirStreamsMetrics} binds an
 * instance's metrics to a {@code MeterRegistry}, so they reach Prometheus, an OTLP collector or a Spring
 * Boot actuator with their tags.
 */
@NullMarked
package io.weir.streams.micrometer;

import org.jspecify.annotations.NullMarked;
