package io.weir.benchmarks.joins;

import io.weir.benchmarks.TableTopologies;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;

import java.time.Duration;

/**
 * The join workloads the benchmarks run, in both libraries, String keys and values, RocksDB stores:
 * <ul>
 *   <li><b>enrichment</b>: a stream left-joined with a table read from a topic (the latest row; Weir's
 *       aligned mode too, with a versioned table);</li>
 *   <li><b>windowed</b>: two streams inner-joined within {@link #WINDOW} either way;</li>
 *   <li><b>foreign key</b>: a table of orders (order -> customer) joined with a table of customers by the
 *       order's value.</li>
 * </ul>
 * Joiners concatenate {@code "left|right"}; outputs carry each result's value. Kafka Streams' table
 * topologies are built with {@code topology.optimization=all}, so its tables, like Weir's, use their
 * source topics as changelogs.
 */
public final class JoinTopologies {

    public static final Duration WINDOW = Duration.ofMinutes(10);

    private static final Serde<String> KS = org.apache.kafka.common.serialization.Serdes.String();

    private JoinTopologies() {}

    /** Weir's enrichment: {@code events} left-joined with the table {@code table}, latest or aligned. */
    public static Topology weirEnrichment(String events, String table, String out, boolean aligned) {
        StreamsBuilder builder = new StreamsBuilder();
        Materialized<String, String> store = Materialized.as("profiles");
        Table<String, String> profiles = builder.table(
                table,
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()),
                aligned ? store.versioned(Duration.ofHours(1)) : store);
        builder.stream(events, Consumed.with(Serdes.String(), Serdes.String()))
                .leftJoin(
                        profiles,
                        (e, p) -> e + "|" + p,
                        aligned ? Joined.<String, String>aligned().withName("enrich") : Joined.latest())
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    public static org.apache.kafka.streams.Topology kafkaStreamsEnrichment(String events, String table, String out) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        org.apache.kafka.streams.kstream.KTable<String, String> profiles = builder.table(
                table,
                org.apache.kafka.streams.kstream.Consumed.with(KS, KS),
                org.apache.kafka.streams.kstream.Materialized.as("profiles"));
        builder.stream(events, org.apache.kafka.streams.kstream.Consumed.with(KS, KS))
                .leftJoin(profiles, (e, p) -> e + "|" + p)
                .to(out, org.apache.kafka.streams.kstream.Produced.with(KS, KS));
        return builder.build(TableTopologies.optimized());
    }

    public static Topology weirWindowed(String left, String right, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String())
                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps());
        EventStream<String, String> l = builder.stream(left, consumed);
        l.join(builder.stream(right, consumed), (a, b) -> a + "|" + b, JoinWindows.of(WINDOW))
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    public static org.apache.kafka.streams.Topology kafkaStreamsWindowed(String left, String right, String out) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        org.apache.kafka.streams.kstream.KStream<String, String> l =
                builder.stream(left, org.apache.kafka.streams.kstream.Consumed.with(KS, KS));
        l.join(
                        builder.stream(right, org.apache.kafka.streams.kstream.Consumed.with(KS, KS)),
                        (a, b) -> a + "|" + b,
                        org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceWithNoGrace(WINDOW),
                        org.apache.kafka.streams.kstream.StreamJoined.with(KS, KS, KS))
                .to(out, org.apache.kafka.streams.kstream.Produced.with(KS, KS));
        return builder.build();
    }

    public static Topology weirForeignKey(String orders, String customers, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> o = builder.table(orders, Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, String> c = builder.table(customers, Consumed.with(Serdes.String(), Serdes.String()));
        o.join(c, customer -> customer, (a, b) -> a + "|" + b)
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    public static org.apache.kafka.streams.Topology kafkaStreamsForeignKey(
            String orders, String customers, String out) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        org.apache.kafka.streams.kstream.KTable<String, String> o = builder.table(
                orders,
                org.apache.kafka.streams.kstream.Consumed.with(KS, KS),
                org.apache.kafka.streams.kstream.Materialized.as("orders"));
        org.apache.kafka.streams.kstream.KTable<String, String> c = builder.table(
                customers,
                org.apache.kafka.streams.kstream.Consumed.with(KS, KS),
                org.apache.kafka.streams.kstream.Materialized.as("customers"));
        o.join(c, customer -> customer, (a, b) -> a + "|" + b)
                .toStream()
                .to(out, org.apache.kafka.streams.kstream.Produced.with(KS, KS));
        return builder.build(TableTopologies.optimized());
    }
}
