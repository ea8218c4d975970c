package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.processor.RepartitionSinkProcessor;
import io.weir.streams.internals.topology.SourceNames;
import org.apache.kafka.common.serialization.Serde;

import java.util.List;
import java.util.Set;

/**
 * The repartition topics of the graph: a sink that writes records to {@code <base>-repartition},
 * partitioned by key, and the source that reads them back in the tasks of the new key. Records of a
 * stream carry watermark marks with them; a join's messages about table rows do not, and their reader
 * leaves them out of its watermark.
 */
final class RepartitionTopics {

    private RepartitionTopics() {}

    /**
     * Writes what {@code parents} emit to the repartition topic {@code <base>-repartition}, with
     * {@code partitions} partitions (-1 for the writers' task count), and reads it back; returns the
     * reading source's node.
     */
    static <K, V> String through(
            GraphBuilder graph, List<String> parents, String base, Serde<K> k, Serde<V> v, int partitions) {
        String topic = sink(graph, parents, base, k, v, true);
        return graph.addRepartitionSource(topic, Consumed.with(k, v), partitions);
    }

    /**
     * Writes a join's messages about table rows, which {@code parents} emit, to the repartition topic
     * {@code <base>-repartition}, without watermark marks, for a reader that leaves it out of its
     * watermark; the reading source is named {@link #sourceName}, for a reader added before it.
     */
    static <K, V> void throughTableMessages(
            GraphBuilder graph, List<String> parents, String base, Serde<K> k, Serde<V> v) {
        graph.addTableMessageSource(sink(graph, parents, base, k, v, false), Consumed.with(k, v));
    }

    /** The name of the source reading the repartition topic of {@code base}. */
    static String sourceName(String base) {
        return SourceNames.of(base + "-repartition");
    }

    /** Adds the sink writing the repartition topic {@code <base>-repartition}, with watermark marks or not; returns the topic. */
    private static <K, V> String sink(
            GraphBuilder graph, List<String> parents, String base, Serde<K> k, Serde<V> v, boolean marks) {
        String topic = base + "-repartition";
        graph.addSink(
                base + "-repartition-sink",
                parents,
                () -> new RepartitionSinkProcessor<>(topic, k.serializer(), v.serializer(), marks),
                Set.of(topic));
        return topic;
    }
}
