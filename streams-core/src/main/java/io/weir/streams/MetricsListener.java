package io.weir.streams;

/**
 * Told when a metric of a {@link WeirStreams} instance appears or goes away: how a metrics library keeps
 * its meters in step with the tasks this instance runs (see {@link WeirMetric}). Called on the thread that
 * adds or removes the metric, often a stream thread: keep it quick. An exception it throws is logged
 * and does not stop the instance.
 */
public interface MetricsListener {

    /**
     * A metric appeared: a task, operator or store started here, or the listener was just added.
     *
     * @param metric the new metric
     */
    void metricAdded(WeirMetric metric);

    /**
     * A metric went away: its task left this instance, or the instance closed.
     *
     * @param metric the metric, as {@link #metricAdded} was given it
     */
    void metricRemoved(WeirMetric metric);
}
