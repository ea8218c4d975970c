package io.weir.streams.internals.topology;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.processor.InternalTopics;
import org.jspecify.annotations.Nullable;

import java.util.regex.Pattern;

/**
 * A source topic and how it is read; its records enter the graph at the node named {@code nodeName}.
 * A repartition source reads an internal topic ({@code <application.id>-<topic>}) whose watermark
 * comes from the upstream tasks that write it, not from its records' event times.
 *
 * <p>A source given by a pattern ({@code StreamsBuilder.stream(Pattern, ...)}) is unresolved until the
 * topology is resolved against the topics that exist ({@link TopologySpec#resolvePatterns}): then it
 * becomes one source per matching topic, all with the same node name.
 *
 * @param partitions a repartition topic's chosen partition count, or -1 for its writers' task count
 *                   (always -1 for a user topic, whose count Kafka says)
 * @param pattern    the pattern of an unresolved pattern source ({@code topic} is then its text); null
 *                   for a named topic
 * @param table      whether the topic is read as a table ({@code StreamsBuilder.table}): its partitions
 *                   do not hold back the watermark of the task's streams, and the table's store restores
 *                   from it. For a repartition topic: whether it carries a join's messages about table
 *                   rows (a foreign-key join's subscriptions and responses), which have no event time of
 *                   their own, so it is left out of the watermark altogether (and its writers send no
 *                   watermark marks)
 */
public record SourceSpec(
        String nodeName,
        String topic,
        Consumed<?, ?> consumed,
        boolean repartition,
        int partitions,
        @Nullable Pattern pattern,
        boolean table) {

    /** A source reading the named topic. */
    public SourceSpec(String nodeName, String topic, Consumed<?, ?> consumed, boolean repartition, int partitions) {
        this(nodeName, topic, consumed, repartition, partitions, null, false);
    }

    /** A source reading a stream. */
    public SourceSpec(
            String nodeName,
            String topic,
            Consumed<?, ?> consumed,
            boolean repartition,
            int partitions,
            @Nullable Pattern pattern) {
        this(nodeName, topic, consumed, repartition, partitions, pattern, false);
    }

    /** The topic's name as it exists in Kafka for application {@code applicationId}. */
    public String topic(String applicationId) {
        return repartition ? InternalTopics.name(applicationId, topic) : topic;
    }
}
