package io.weir.streams;

import java.util.Map;

/**
 * One metric of a running {@link WeirStreams} instance, as JMX and metrics libraries see it: a name, the
 * level it belongs to, the tags that place it, and a value read on demand. Listed by {@link
 * WeirStreams#allMetrics()}, followed with {@link WeirStreams#addMetricsListener(MetricsListener)}.
 *
 * <p>A metric of a task, operator or store exists while this instance runs the task: it is removed when
 * the task moves to another instance, and added again if the task comes back (its counters go on from
 * where they were if it comes back to the same stream thread; a store cache's hits and misses start
 * again). Values may be read from any thread.
 */
public interface WeirMetric {

    /** Where in an instance a metric belongs; each level adds one tag to the level above. */
    enum Level {
        /** The instance: tags {@code application}, {@code client}. */
        APPLICATION,
        /** A stream thread: adds {@code thread}. */
        THREAD,
        /** A task (active, or a standby copy): adds {@code task}. */
        TASK,
        /** An operator (processor node) of a task: adds {@code node}. */
        NODE,
        /** A state store of a task: adds {@code store}. */
        STORE
    }

    /** How the value behaves. */
    enum Kind {
        /** A count that only grows while the metric exists. */
        COUNTER,
        /** A value that goes up and down. */
        GAUGE,
        /**
         * Timed events: {@link #value()} counts them, {@link #totalTimeNanos()} sums their durations and
         * {@link #maxTimeNanos()} is the longest of the last 30 to 60 seconds.
         */
        TIMER
    }

    /**
     * The metric's name, lower-case words joined by hyphens, as {@link WeirMetrics} lists them.
     *
     * @return the name, e.g. {@code records-consumed}
     */
    String name();

    /**
     * Where in the instance the metric belongs.
     *
     * @return the level, which says which tags the metric has
     */
    Level level();

    /**
     * How the metric's value behaves.
     *
     * @return counter, gauge or timer
     */
    Kind kind();

    /**
     * The tags that place the metric, in the order {@code application, client, thread, task} then {@code
     * node} or {@code store}, as far as its {@link #level()} goes. {@code client} tells apart the instances
     * of one application; it begins with the application id.
     *
     * @return the tags by name, in that order
     */
    Map<String, String> tags();

    /**
     * What the metric measures, in one sentence.
     *
     * @return the description, as JMX shows it
     */
    String description();

    /**
     * The current value: the count of a counter or timer, the value of a gauge.
     *
     * @return the value, read now
     */
    double value();

    /**
     * For a {@link Kind#TIMER}, the summed duration of the events counted; 0 for the other kinds.
     *
     * @return the summed duration, in nanoseconds
     */
    default long totalTimeNanos() {
        return 0;
    }

    /**
     * For a {@link Kind#TIMER}, the longest event of the last 30 to 60 seconds; 0 for the other kinds.
     *
     * @return the longest duration, in nanoseconds
     */
    default long maxTimeNanos() {
        return 0;
    }
}
