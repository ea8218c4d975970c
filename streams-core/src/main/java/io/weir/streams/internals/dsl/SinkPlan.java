package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.StreamPartitioner;
import io.weir.streams.dsl.TopicNameExtractor;
import io.weir.streams.internals.processor.SinkProcessor;
import org.apache.kafka.common.serialization.Serde;

import java.util.Set;

/**
 * A stream written to output topics ({@code to}) as the graph holds it: the serdes {@code Produced}
 * gives or the stream knows, noted for configuration, and a {@link SinkProcessor} node with the
 * partitioner and the production error handler.
 */
final class SinkPlan {

    private SinkPlan() {}

    /**
     * Adds the sink {@code name} after {@code stream}, writing each record to the topic {@code topics}
     * names; {@code what} names the operator in errors, {@code outputTopics} are the topics it is known to write.
     */
    static <K, V> void wire(
            EventStreamImpl<K, V> stream,
            String name,
            String what,
            TopicNameExtractor<? super K, ? super V> topics,
            Produced<K, V> produced,
            Set<String> outputTopics) {
        Serde<K> k = produced.keySerde().orElse(stream.keySerde);
        Serde<V> v = produced.valueSerde().orElse(stream.valueSerde);
        if (k == null || v == null) {
            throw new IllegalStateException(what + ": the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown (after a map, or a merge of streams with different serdes); "
                    + "pass Produced.with(keySerde, valueSerde)");
        }
        GraphBuilder graph = stream.graph;
        graph.useSerde(k, true);
        graph.useSerde(v, false);
        StreamPartitioner<? super K, ? super V> partitioner =
                produced.partitioner().orElse(null);
        graph.addSink(
                name,
                stream.nodes,
                () -> new SinkProcessor<>(topics, k.serializer(), v.serializer(), produced.errorHandler(), partitioner),
                outputTopics);
    }
}
