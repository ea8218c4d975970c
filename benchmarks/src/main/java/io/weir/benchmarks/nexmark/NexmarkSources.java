package io.weir.benchmarks.nexmark;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.state.Stores;

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

    /**
     * The history retention of the versioned tables of auctions ({@link #auctionVersions}). Auctions are
     * never updated, so such a table holds one version per auction whatever this is (only replaced versions
     * expire), and Kafka Streams finds it at any age. Weir's aligned join, though, refuses a bid whose event
     * time is this far behind the auctions' watermark when the bid is processed, as older than the table's
     * history; and on a pre-loaded input the auctions can be that far ahead: Weir processes what a poll
     * returns partition by partition, and the auctions' topic holds about a third of the bids' bytes per
     * second of event time, so its reads can run ahead, as far as the closing events an hour past the input's
     * end while bids are still being read. (With a retention of a minute, Weir's q4, q9 and q20 joined no bid
     * at all when every auction was piped before the first bid, as NexmarkQueriesTest pipes them.) A week
     * covers any input the benchmark loads.
     */
    public static final Duration AUCTION_HISTORY = Duration.ofDays(7);

    private static final String AUCTION_VERSIONS = "auction-versions";
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

    /**
     * Weir's versioned table of auctions by id, for joining a bid with the auction valid at its event time
     * ({@code Joined.aligned()}); versions kept for {@link #AUCTION_HISTORY}.
     */
    public Table<Long, Auction> auctionVersions(StreamsBuilder builder) {
        return builder.table(
                topics.auctions(),
                consumed(NexmarkSerdes.auction()),
                Materialized.<Long, Auction>as(AUCTION_VERSIONS).versioned(AUCTION_HISTORY));
    }

    /** Weir's global table of q13's side input, by row. */
    public GlobalTable<Long, String> sideInput(StreamsBuilder builder) {
        return builder.globalTable(topics.sideInput(), Consumed.with(LONGS, Serdes.String()));
    }

    /** Kafka Streams' global table of q13's side input, by row. */
    public GlobalKTable<Long, String> sideInput(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.globalTable(
                topics.sideInput(), org.apache.kafka.streams.kstream.Consumed.with(LONGS, Serdes.String()));
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

    /**
     * Kafka Streams' versioned table of auctions by id, for joining a bid with the auction valid at its
     * event time (a stream–table join with a grace period); versions kept for {@link #AUCTION_HISTORY}.
     */
    public KTable<Long, Auction> auctionVersions(org.apache.kafka.streams.StreamsBuilder builder) {
        return builder.table(
                topics.auctions(),
                ksConsumed(NexmarkSerdes.auction()),
                org.apache.kafka.streams.kstream.Materialized.<Long, Auction>as(
                        Stores.persistentVersionedKeyValueStore(AUCTION_VERSIONS, AUCTION_HISTORY)));
    }

    private <V> Consumed<Long, V> consumed(Serde<V> values) {
        return Consumed.with(LONGS, values).withWatermarks(WatermarkStrategy.boundedOutOfOrderness(outOfOrder));
    }

    private static <V> org.apache.kafka.streams.kstream.Consumed<Long, V> ksConsumed(Serde<V> values) {
        return org.apache.kafka.streams.kstream.Consumed.with(LONGS, values);
    }
}
