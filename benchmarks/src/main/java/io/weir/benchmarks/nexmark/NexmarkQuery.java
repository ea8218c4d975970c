package io.weir.benchmarks.nexmark;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import org.apache.kafka.common.serialization.Serde;

/**
 * One Nexmark query, written once for each engine as its users would write it, with the brute-force
 * reference both engines' outputs are checked against. Both write to one output topic with the same
 * serdes, so their outputs are compared record for record.
 *
 * @param name         {@code q0} ... {@code q22}
 * @param description  what the query computes, in a line
 * @param shape        how the output is compared with the reference
 * @param keySerde     the output's keys
 * @param valueSerde   the output's values
 * @param weir         builds Weir's topology
 * @param kafkaStreams builds Kafka Streams' topology
 * @param reference    the results the output must come to
 * @param <K>          the output's key type
 * @param <V>          the output's value type
 */
public record NexmarkQuery<K, V>(
        String name,
        String description,
        OutputShape shape,
        Serde<K> keySerde,
        Serde<V> valueSerde,
        WeirPlan weir,
        KafkaStreamsPlan kafkaStreams,
        Reference<K, V> reference) {

    /** Adds a query's operators to a Weir builder, from the sources to {@code output}. */
    @FunctionalInterface
    public interface WeirPlan {
        void build(StreamsBuilder builder, NexmarkSources sources, String output);
    }

    /** Adds a query's operators to a Kafka Streams builder, from the sources to {@code output}. */
    @FunctionalInterface
    public interface KafkaStreamsPlan {
        void build(org.apache.kafka.streams.StreamsBuilder builder, NexmarkSources sources, String output);
    }

    /** Weir's topology of this query. */
    public Topology weirTopology(NexmarkSources sources, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        weir.build(builder, sources, output);
        return builder.build();
    }

    /** Kafka Streams' topology of this query, optimized as {@code topology.optimization=all} does. */
    public org.apache.kafka.streams.Topology kafkaStreamsTopology(NexmarkSources sources, String output) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        kafkaStreams.build(builder, sources, output);
        return builder.build(io.weir.benchmarks.TableTopologies.optimized());
    }
}
