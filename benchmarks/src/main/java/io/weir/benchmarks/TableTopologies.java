package io.weir.benchmarks;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The table workloads the benchmarks run, in both libraries, with String keys and Long results:
 *
 * <ul>
 *   <li><b>word count</b>: lines split into words, re-keyed by word (a repartition), counted;
 *   <li><b>regroup</b>: a table of users read from a topic (value {@code r<region>:<amount>}),
 *       re-keyed by region and summed with an adder and a subtractor, so every update of a user takes
 *       its old amount out of its old region's sum;
 *   <li><b>key count</b>: records counted per key as they are keyed (no repartition), the store a
 *       restore replays.
 * </ul>
 *
 * Every store is RocksDB with each library's default cache. Kafka Streams' topologies are built with
 * {@code topology.optimization=all} (see {@link #KAFKA_STREAMS_OPTIMIZATION}), so its table source
 * uses the input topic as its changelog, as Weir's does.
 */
public final class TableTopologies {

    /** The store of the word count and the key count. */
    public static final String COUNTS = "counts";

    /** The store of the regroup's sums. */
    public static final String SUMS = "sums";

    /** What Kafka Streams' topologies are built with, and its app must be configured with. */
    public static final String KAFKA_STREAMS_OPTIMIZATION = StreamsConfig.OPTIMIZE;

    private static final Serde<String> KS_STRINGS = org.apache.kafka.common.serialization.Serdes.String();
    private static final Serde<Long> KS_LONGS = org.apache.kafka.common.serialization.Serdes.Long();

    private TableTopologies() {}

    /** Weir's word count: the lines of {@code input}, each word's count to {@code output}. */
    public static Topology weirWordCount(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMap((key, line) -> {
                    List<KeyValue<String, String>> pairs = new ArrayList<>(12);
                    for (String word : words(line)) {
                        pairs.add(KeyValue.pair(word, word));
                    }
                    return pairs;
                })
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()).withName("words"))
                .count(Materialized.as(COUNTS))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Kafka Streams' word count, the same operators. */
    public static org.apache.kafka.streams.Topology kafkaStreamsWordCount(String input, String output) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.stream(input, org.apache.kafka.streams.kstream.Consumed.with(KS_STRINGS, KS_STRINGS))
                .flatMap((key, line) -> {
                    List<org.apache.kafka.streams.KeyValue<String, String>> pairs = new ArrayList<>(12);
                    for (String word : words(line)) {
                        pairs.add(org.apache.kafka.streams.KeyValue.pair(word, word));
                    }
                    return pairs;
                })
                .groupByKey(org.apache.kafka.streams.kstream.Grouped.with("words", KS_STRINGS, KS_STRINGS))
                .count(org.apache.kafka.streams.kstream.Materialized.as(COUNTS))
                .toStream()
                .to(output, org.apache.kafka.streams.kstream.Produced.with(KS_STRINGS, KS_LONGS));
        return builder.build(optimized());
    }

    /** Weir's regroup: the table of users in {@code input}, the sum of amounts per region to {@code output}. */
    public static Topology weirRegroup(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy(
                        (user, value) -> KeyValue.pair(region(value), amount(value)),
                        Grouped.with(Serdes.String(), Serdes.Long()).withName("regions"))
                .aggregate(
                        () -> 0L,
                        (region, amount, sum) -> sum + amount,
                        (region, amount, sum) -> sum - amount,
                        Materialized.<String, Long>as(SUMS).withValueSerde(Serdes.Long()))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Kafka Streams' regroup, the same operators. */
    public static org.apache.kafka.streams.Topology kafkaStreamsRegroup(String input, String output) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.table(
                        input,
                        org.apache.kafka.streams.kstream.Consumed.with(KS_STRINGS, KS_STRINGS),
                        org.apache.kafka.streams.kstream.Materialized.as("users"))
                .groupBy(
                        (user, value) -> org.apache.kafka.streams.KeyValue.pair(region(value), amount(value)),
                        org.apache.kafka.streams.kstream.Grouped.with("regions", KS_STRINGS, KS_LONGS))
                .aggregate(
                        () -> 0L,
                        (region, amount, sum) -> sum + amount,
                        (region, amount, sum) -> sum - amount,
                        org.apache.kafka.streams.kstream.Materialized
                                .<String, Long,
                                        org.apache.kafka.streams.state.KeyValueStore<
                                                org.apache.kafka.common.utils.Bytes, byte[]>>
                                        as(SUMS)
                                .withValueSerde(KS_LONGS))
                .toStream()
                .to(output, org.apache.kafka.streams.kstream.Produced.with(KS_STRINGS, KS_LONGS));
        return builder.build(optimized());
    }

    /** Weir's key count: the records of {@code input} counted per key, to {@code output}. */
    public static Topology weirKeyCount(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as(COUNTS))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Kafka Streams' key count, the same operators. */
    public static org.apache.kafka.streams.Topology kafkaStreamsKeyCount(String input, String output) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.stream(input, org.apache.kafka.streams.kstream.Consumed.with(KS_STRINGS, KS_STRINGS))
                .groupByKey()
                .count(org.apache.kafka.streams.kstream.Materialized.as(COUNTS))
                .toStream()
                .to(output, org.apache.kafka.streams.kstream.Produced.with(KS_STRINGS, KS_LONGS));
        return builder.build(optimized());
    }

    /** The words of a line, split at single spaces, the same way for both engines. */
    public static List<String> words(String line) {
        List<String> words = new ArrayList<>(12);
        int from = 0;
        for (int space = line.indexOf(' '); space >= 0; space = line.indexOf(' ', from)) {
            words.add(line.substring(from, space));
            from = space + 1;
        }
        words.add(line.substring(from));
        return words;
    }

    /** A user row's value: its region and amount; {@link #region} and {@link #amount} read them back. */
    public static String userValue(int region, long amount) {
        return "r" + region + ":" + amount;
    }

    public static String region(String value) {
        return value.substring(0, value.indexOf(':'));
    }

    public static long amount(String value) {
        return Long.parseLong(value.substring(value.indexOf(':') + 1));
    }

    /** Kafka Streams' {@code topology.optimization=all}, for {@code StreamsBuilder.build(props)}. */
    public static Properties optimized() {
        Properties props = new Properties();
        props.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, KAFKA_STREAMS_OPTIMIZATION);
        return props;
    }
}
