package io.weir.streams;

/**
 * Told when a metric of a {@link WeirStreams} instance appears or goes away: how a metrics library keeps
 * its meters in step with the tasks this instance runs (see {@link WeirMetric}). Called on the thread that
 * adds or removes the metric, often a stream thread: keep it quick. An exception it throws is logged
 * and does not stop the instance.
 */
public interface MetricsListener {

    void metricAdded(WeirMetric metric);

    void metricRemoved(WeirMetric metric);
}
