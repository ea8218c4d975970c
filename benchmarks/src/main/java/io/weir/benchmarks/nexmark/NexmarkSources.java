package io.weir.benchmarks.nexmark;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

import java.time.Duration;

/**
 * The Nexmark inputs as each engine's streams and tables, read the same way by every query: keys are the
 * entity's id (a bid's: its auction), event time is the record's timestamp (the event's {@code dateTime}),
 * and Weir's watermark trails the largest event time by the generator's out-of-order bound, the grace
 * Kafka Streams' windows get.
 *
 * @param topics     where the events are
 * @param outOfOrder the out-of-order bound of the input: Weir's watermark delay, Kafka Streams' grace
 */
public record NexmarkSources(NexmarkTopics topics, Duration outOfOrder) {

    /**
     * The least watermark delay (and grace): the 4 seconds of the Nexmark suite's Flink tables. Even an
     * input in order needs some: a repartition interleaves the writes of several upstream tasks, so event
     * time goes back and forth in a repartition topic by as much as those tasks are apart.
     */
    public static final Duration MIN_DELAY = Duration.ofSeconds(4);

    private static final Serde<Long> LONGS = Serdes.Long();

    /** How far event time may go back in the input of {@code config}: its out-of-order bound, at least {@link #MIN_DELAY}. */
    public static Duration outOfOrder(NexmarkConfig config) {
        Duration bound = config.maxOutOfOrderness();
        return bound.compareTo(MIN_DELAY) > 0 ? bound : MIN_DELAY;
    }

    /** Weir's stream of bids. */
    public EventStream<Long, Bid> bids(StreamsBuilder builder) {
        return builder.stream(topics.bids(), consumed(NexmarkSerdes.bid()));
    }

    /** Weir's stream of new persons. */
    public EventStream<Long, Person> persons(StreamsBuilder builder) {
        return builder.stream(topics.persons(), consumed(NexmarkSerdes.person()));
    }

    /** Weir's stream of new auctions. */
    public EventStream<Long, Auction> auctions(StreamsBuilder builder) {
        return builder.stream(topics.auctions(), consumed(NexmarkSerdes.auction()));
    }

    /** Weir's table of persons by id. */
    public Table<Long, Person> personTable(StreamsBuilder builder) {
        return builder.table(topics.persons(), consumed(NexmarkSerdes.person()), Materialized.as("persons"));
    }

    /** Weir's table of auctions by id. */
    public Table<Long, Auction> auctionTable(StreamsBuilder builder) {
        return builder.table(topics.auctions(), consumed(NexmarkSerdes.auction()), Materialized.as("auctions"));
    }

    /** Kafka Streams' stream of bids. */
    public KStream<Long, Bid> bids(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.stream(topics.bids(), ksConsumed(NexmarkSerdes.bid()));
    }

    /** Kafka Streams' stream of new persons. */
    public KStream<Long, Person> persons(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.stream(topics.persons(), ksConsumed(NexmarkSerdes.person()));
    }

    /** Kafka Streams' stream of new auctions. */
    public KStream<Long, Auction> auctions(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.stream(topics.auctions(), ksConsumed(NexmarkSerdes.auction()));
    }

    /** Kafka Streams' table of persons by id. */
    public KTable<Long, Person> personTable(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.table(
                topics.persons(),
                ksConsumed(NexmarkSerdes.person()),
                org.apache.kafka.streams.kstream.Materialized.as("persons"));
    }

    /** Kafka Streams' table of auctions by id. */
    public KTable<Long, Auction> auctionTable(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.table(
                topics.auctions(),
                ksConsumed(NexmarkSerdes.auction()),
                org.apache.kafka.streams.kstream.Materialized.as("auctions"));
    }

    private <V> Consumed<Long, V> consumed(Serde<V> values) {
        return Consumed.with(LONGS, values).withWatermarks(WatermarkStrategy.boundedOutOfOrderness(outOfOrder));
    }

    private static <V> org.apache.kafka.streams.kstream.Consumed<Long, V> ksConsumed(Serde<V> values) {
        return org.apache.kafka.streams.kstream.Consumed.with(LONGS, values);
    }
}
