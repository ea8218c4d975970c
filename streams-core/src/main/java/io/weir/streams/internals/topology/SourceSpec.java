package io.weir.streams.internals.topology;

import io.weir.streams.dsl.Consumed;

/**
 * A source topic and how it is read; its records enter the graph at the node named {@code nodeName}.
 * A repartition source reads an internal topic ({@code <application.id>-<topic>}) whose watermark
 * comes from the upstream tasks that write it, not from its records' event times.
 *
 * @param partitions a repartition topic's chosen partition count, or -1 for its writers' task count
 *                   (always -1 for a user topic, whose count Kafka says)
 */
public record SourceSpec(String nodeName, String topic, Consumed<?, ?> consumed, boolean repartition, int partitions) {

    /** The topic's name as it exists in Kafka for application {@code applicationId}. */
    public String topic(String applicationId) {
        return repartition ? InternalTopics.name(applicationId, topic) : topic;
    }
}
