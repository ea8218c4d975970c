package io.weir.benchmarks.nexmark;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.KStream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * The Nexmark queries that join: auctions with their sellers (q3), and bids with their auctions (q4, q9,
 * q20). Their outputs update (q3, q4, q9) or append (q20) as the joined rows come, with no windows.
 *
 * <p>q3 joins two tables, a foreign-key join of auctions to persons by seller, so its result is the
 * relational join whatever order persons and auctions come in (a seller may come after the auction).
 *
 * <p>A bid meets its auction <em>as of the bid's event time</em>: the auction joins if it opened at or
 * before the bid. In Weir, the stream–table join {@code Joined.aligned()} with the versioned table of
 * auctions: a bid waits until the auctions' watermark reaches its event time, then joins the version valid
 * then. In Kafka Streams, the stream–table join with the versioned table and a grace period of the input's
 * out-of-order bound: a bid waits until the bids' stream time has passed it by the grace, then joins the
 * version valid at its time. Either way the output does not depend on how the two topics interleave (as
 * long as an auction comes within the out-of-order bound of its time, and in Weir a bid within {@link
 * NexmarkSources#AUCTION_HISTORY} of the auctions' watermark), unlike a join with the table's latest row. Two
 * consequences the references follow:
 *
 * <ul>
 *   <li>A bid on an auction that opens after it (the generator names up to 10 auctions ahead) joins
 *       nothing, where a relational join, blind to time, would pair them. For q4 and q9 it makes no
 *       difference, since a bid counts only within its auction's lifetime. q20's reference is the as-of
 *       join: on {@code NexmarkQueriesTest}'s input, 66 of the 488 results of the relational join are such
 *       bids.
 *   <li>A bid joins only once the watermark has passed it, so the bids after the final watermark (the
 *       closing events' own) wait for ever in both engines, and the references leave them out.
 * </ul>
 */
final class JoinQueries {

    /** The category q3 and q20 look at. */
    static final long CATEGORY = 10;

    /** The states of q3's sellers. */
    static final Set<String> STATES = Set.of("OR", "ID", "CA");

    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<String> STRINGS = Serdes.String();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;
    private static final Serde<Bid> BIDS = NexmarkSerdes.bid();
    private static final Serde<Auction> AUCTIONS = NexmarkSerdes.auction();

    /** A category's sum and count of winning prices before any auction. */
    private static final long[] NO_PRICES = {0, 0};

    private JoinQueries() {}

    static List<NexmarkQuery<?, ?>> all() {
        return List.of(localItemSuggestion(), averagePrice(), winningBids(), expandedBids());
    }

    /**
     * q3: the category-10 auctions whose seller lives in Oregon, Idaho or California, with the seller's
     * name, city and state: the table of auctions, filtered, joined to the filtered table of persons by
     * its foreign key, the seller. A row per auction.
     */
    static NexmarkQuery<Long, String> localItemSuggestion() {
        return new NexmarkQuery<>(
                "q3",
                "local item suggestion: category-10 auctions of sellers in OR, ID or CA, with the seller's city",
                OutputShape.UPSERT,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.auctionTable(builder)
                        .filter((id, auction) -> auction.category() == CATEGORY)
                        .join(
                                sources.personTable(builder).filter((id, person) -> STATES.contains(person.state())),
                                Auction::seller,
                                JoinQueries::q3)
                        .toStream()
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.auctionTable(builder)
                        .filter((id, auction) -> auction.category() == CATEGORY)
                        .join(
                                sources.personTable(builder).filter((id, person) -> STATES.contains(person.state())),
                                Auction::seller,
                                JoinQueries::q3)
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    Map<Long, Person> persons = new HashMap<>();
                    for (Event e : events) {
                        if (e instanceof Person p) {
                            persons.put(p.id(), p);
                        }
                    }
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    for (Event e : events) {
                        if (e instanceof Auction a && a.category() == CATEGORY) {
                            Person seller = persons.get(a.seller());
                            if (seller != null && STATES.contains(seller.state())) {
                                rows.add(KeyValue.pair(a.id(), q3(a, seller)));
                            }
                        }
                    }
                    return rows;
                });
    }

    private static String q3(Auction auction, Person seller) {
        return Rows.of(seller.name(), seller.city(), seller.state(), auction.id());
    }

    /**
     * q4: per category, the average winning price of its auctions, in whole cents rounded down. An
     * auction's winning price is the highest of its bids within its lifetime; an updating aggregate per
     * auction, re-grouped by category into a sum and a count, an auction's old price taken out (the
     * subtractor) as its new one comes in. A row per category.
     */
    static NexmarkQuery<Long, Long> averagePrice() {
        return new NexmarkQuery<>(
                "q4",
                "average price per category: the mean of its auctions' winning bids, in whole cents",
                OutputShape.UPSERT,
                LONGS,
                LONGS,
                (builder, sources, output) -> bidsInLifetime(builder, sources, JoinQueries::categoryPrice)
                        .groupByKey()
                        .reduce(JoinQueries::higherPrice, Materialized.with(LONGS, ARRAYS))
                        .groupBy(
                                (auction, winning) -> KeyValue.pair(winning[0], winning[1]), Grouped.with(LONGS, LONGS))
                        .aggregate(
                                () -> NO_PRICES,
                                (category, price, prices) -> withPrice(prices, price),
                                (category, price, prices) -> withoutPrice(prices, price),
                                Materialized.with(LONGS, ARRAYS))
                        .mapValues(JoinQueries::average)
                        .toStream()
                        .to(output, Produced.with(LONGS, LONGS)),
                (builder, sources, output) -> bidsInLifetime(builder, sources, JoinQueries::categoryPrice)
                        .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(LONGS, ARRAYS))
                        .reduce(
                                JoinQueries::higherPrice,
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .groupBy(
                                (auction, winning) -> org.apache.kafka.streams.KeyValue.pair(winning[0], winning[1]),
                                org.apache.kafka.streams.kstream.Grouped.with(LONGS, LONGS))
                        .aggregate(
                                () -> NO_PRICES,
                                (category, price, prices) -> withPrice(prices, price),
                                (category, price, prices) -> withoutPrice(prices, price),
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .mapValues(JoinQueries::average)
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, LONGS)),
                (events, watermark) -> {
                    Map<Long, long[]> winning = new HashMap<>();
                    for (BidOnAuction joined : bidsWithAuctions(events, watermark)) {
                        if (inLifetime(joined.auction(), joined.bid())) {
                            winning.merge(
                                    joined.auction().id(),
                                    categoryPrice(joined.auction(), joined.bid()),
                                    JoinQueries::higherPrice);
                        }
                    }
                    Map<Long, long[]> categories = new TreeMap<>();
                    for (long[] categoryPrice : winning.values()) {
                        long category = categoryPrice[0];
                        categories.put(
                                category, withPrice(categories.getOrDefault(category, NO_PRICES), categoryPrice[1]));
                    }
                    List<KeyValue<Long, Long>> rows = new ArrayList<>();
                    categories.forEach((category, sumCount) -> rows.add(KeyValue.pair(category, average(sumCount))));
                    return rows;
                });
    }

    /** q4's value of a bid on an auction: {@code [category, price]}. */
    private static long[] categoryPrice(Auction auction, Bid bid) {
        return new long[] {auction.category(), bid.price()};
    }

    /** Of two {@code [category, price]}, the one of the higher price. */
    private static long[] higherPrice(long[] a, long[] b) {
        return b[1] > a[1] ? b : a;
    }

    private static long[] withPrice(long[] sumCount, long price) {
        return new long[] {sumCount[0] + price, sumCount[1] + 1};
    }

    private static long[] withoutPrice(long[] sumCount, long price) {
        return new long[] {sumCount[0] - price, sumCount[1] - 1};
    }

    /** The mean of {@code [sum, count]}, rounded down: prices are whole cents. */
    private static long average(long[] sumCount) {
        return sumCount[0] / sumCount[1];
    }

    /**
     * q9: each auction's winning bid, the best of its bids within its lifetime (the highest price, then the
     * earliest, then the lowest bidder: {@link TopBids#ORDER}); an updating reduce per auction. A row per
     * auction that has such a bid.
     */
    static NexmarkQuery<Long, Bid> winningBids() {
        return new NexmarkQuery<>(
                "q9",
                "winning bids: each auction's highest bid within its lifetime",
                OutputShape.UPSERT,
                LONGS,
                BIDS,
                (builder, sources, output) -> bidsInLifetime(builder, sources, (auction, bid) -> bid)
                        .groupByKey()
                        .reduce(TopBids::better, Materialized.with(LONGS, BIDS))
                        .toStream()
                        .to(output, Produced.with(LONGS, BIDS)),
                (builder, sources, output) -> bidsInLifetime(builder, sources, (auction, bid) -> bid)
                        .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(LONGS, BIDS))
                        .reduce(TopBids::better, org.apache.kafka.streams.kstream.Materialized.with(LONGS, BIDS))
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, BIDS)),
                (events, watermark) -> {
                    Map<Long, Bid> winners = new TreeMap<>();
                    for (BidOnAuction joined : bidsWithAuctions(events, watermark)) {
                        if (inLifetime(joined.auction(), joined.bid())) {
                            winners.merge(joined.auction().id(), joined.bid(), TopBids::better);
                        }
                    }
                    List<KeyValue<Long, Bid>> rows = new ArrayList<>();
                    winners.forEach((auction, bid) -> rows.add(KeyValue.pair(auction, bid)));
                    return rows;
                });
    }

    /**
     * q20: every bid on a category-10 auction, with the auction's fields: bids joined with the filtered
     * table of auctions as of their event time. A record per such bid.
     */
    static NexmarkQuery<Long, String> expandedBids() {
        return new NexmarkQuery<>(
                "q20",
                "expand bid with auction: every bid on a category-10 auction, with the auction's fields",
                OutputShape.APPEND,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .join(
                                sources.auctionVersions(builder)
                                        .filter((id, auction) -> auction.category() == CATEGORY),
                                JoinQueries::q20,
                                Joined.aligned())
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .join(
                                sources.auctionVersions(builder)
                                        .filter((id, auction) -> auction.category() == CATEGORY),
                                JoinQueries::q20,
                                asOf(sources))
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    for (BidOnAuction joined : bidsWithAuctions(events, watermark)) {
                        if (joined.auction().category() == CATEGORY) {
                            rows.add(KeyValue.pair(joined.auction().id(), q20(joined.bid(), joined.auction())));
                        }
                    }
                    return rows;
                });
    }

    private static String q20(Bid bid, Auction auction) {
        return Rows.of(
                bid.auction(),
                bid.bidder(),
                bid.price(),
                bid.channel(),
                bid.url(),
                bid.dateTime(),
                bid.extra(),
                auction.itemName(),
                auction.description(),
                auction.initialBid(),
                auction.reserve(),
                auction.dateTime(),
                auction.expires(),
                auction.seller(),
                auction.category(),
                auction.extra());
    }

    /** Whether {@code bid} came within {@code auction}'s lifetime, both ends included: q4's and q9's bids. */
    static boolean inLifetime(Auction auction, Bid bid) {
        return auction.dateTime() <= bid.dateTime() && bid.dateTime() <= auction.expires();
    }

    /**
     * Weir's bids within their auction's lifetime, keyed by auction, each as {@code result} makes it from
     * the auction and the bid: the aligned join with the versioned table of auctions.
     */
    static <T> EventStream<Long, T> bidsInLifetime(
            StreamsBuilder builder, NexmarkSources sources, BiFunction<Auction, Bid, T> result) {
        return sources.bids(builder)
                .join(
                        sources.auctionVersions(builder),
                        (bid, auction) -> inLifetime(auction, bid) ? result.apply(auction, bid) : null,
                        Joined.aligned())
                .filter((auction, joined) -> joined != null);
    }

    /**
     * Kafka Streams' bids within their auction's lifetime, keyed by auction, each as {@code result} makes it
     * from the auction and the bid: the join with the versioned table of auctions, with a grace period.
     */
    static <T> KStream<Long, T> bidsInLifetime(
            org.apache.kafka.streams.StreamsBuilder builder,
            NexmarkSources sources,
            BiFunction<Auction, Bid, T> result) {
        return sources.bids(builder)
                .join(
                        sources.auctionVersions(builder),
                        (bid, auction) -> inLifetime(auction, bid) ? result.apply(auction, bid) : null,
                        asOf(sources))
                .filter((auction, joined) -> joined != null);
    }

    /**
     * Kafka Streams' join of a bid with the auction valid at its event time: each bid waits, for the input's
     * out-of-order bound of stream time, for the auctions that may still come before it.
     */
    private static org.apache.kafka.streams.kstream.Joined<Long, Bid, Auction> asOf(NexmarkSources sources) {
        return org.apache.kafka.streams.kstream.Joined.with(LONGS, BIDS, AUCTIONS)
                .withGracePeriod(sources.outOfOrder());
    }

    /**
     * The references' join: each bid at or before {@code watermark} with its auction if the auction opened
     * at or before it, in the order of the bids.
     */
    static List<BidOnAuction> bidsWithAuctions(List<Event> events, long watermark) {
        Map<Long, Auction> auctions = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Auction a) {
                auctions.put(a.id(), a);
            }
        }
        List<BidOnAuction> joined = new ArrayList<>();
        for (Event e : events) {
            if (e instanceof Bid b && b.dateTime() <= watermark) {
                Auction auction = auctions.get(b.auction());
                if (auction != null && auction.dateTime() <= b.dateTime()) {
                    joined.add(new BidOnAuction(auction, b));
                }
            }
        }
        return joined;
    }

    /** A bid and its auction, as the references join them. */
    record BidOnAuction(Auction auction, Bid bid) {}
}
