package io.weir.streams.internals.topology;

import io.weir.streams.dsl.Consumed;

/**
 * A source topic and how it is read; its records enter the graph at the node named {@code nodeName}.
 * A repartition source reads an internal topic ({@code <application.id>-<topic>}) whose watermark
 * comes from the upstream tasks that write it, not from its records' event times.
 */
public record SourceSpec(String nodeName, String topic, Consumed<?, ?> consumed, boolean repartition) {

    /** The topic's name as it exists in Kafka for application {@code applicationId}. */
    public String topic(String applicationId) {
        return repartition ? InternalTopics.name(applicationId, topic) : topic;
    }
}
