package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * q6, the average selling price by seller: for each seller, the mean winning price of their {@value #LAST}
 * latest auctions, in whole cents rounded down. An auction's winning bid is q9's (the best of its bids
 * within its lifetime); "latest" is by the winning bid's time, then by auction id. A row per seller.
 *
 * <p>Written as both libraries' users would: the updating table of winning bids per auction, re-grouped by
 * seller into the list of the seller's winning bids (an auction's old winner taken out by the subtractor as
 * its new one comes in), and the mean of the latest ten read off it. The list keeps every auction of the
 * seller, not only the latest ten: a new winner may be earlier than the one it replaces, and then an older
 * auction comes back into the ten. The Nexmark suite counts only auctions that have closed; an updating
 * table counts each auction's best bid so far, and the two agree once every auction has closed.
 */
final class AverageSellingPrice {

    /** How many of a seller's latest auctions the mean takes. */
    static final int LAST = 10;

    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;

    /** A winning bid in the per-seller list: {@code auction, time, price}. */
    private static final int WIDTH = 3;

    private static final long[] NONE = {};

    private AverageSellingPrice() {}

    static NexmarkQuery<Long, Long> query() {
        return new NexmarkQuery<>(
                "q6",
                "average selling price by seller: the mean winning price of each seller's ten latest auctions",
                OutputShape.UPSERT,
                LONGS,
                LONGS,
                (builder, sources, output) -> JoinQueries.bidsInLifetime(
                                builder, sources, AverageSellingPrice::sellerBid)
                        .groupByKey(Grouped.with(LONGS, ARRAYS))
                        .reduce(AverageSellingPrice::better, Materialized.with(LONGS, ARRAYS))
                        .groupBy(
                                (auction, winner) -> KeyValue.pair(winner[0], entry(auction, winner)),
                                Grouped.with(LONGS, ARRAYS))
                        .aggregate(
                                () -> NONE,
                                (seller, entry, winners) -> with(winners, entry),
                                (seller, entry, winners) -> without(winners, entry),
                                Materialized.with(LONGS, ARRAYS))
                        .mapValues(AverageSellingPrice::meanOfLatest)
                        .toStream()
                        .to(output, Produced.with(LONGS, LONGS)),
                (builder, sources, output) -> JoinQueries.bidsInLifetime(
                                builder, sources, AverageSellingPrice::sellerBid)
                        .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(LONGS, ARRAYS))
                        .reduce(
                                AverageSellingPrice::better,
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .groupBy(
                                (auction, winner) ->
                                        org.apache.kafka.streams.KeyValue.pair(winner[0], entry(auction, winner)),
                                org.apache.kafka.streams.kstream.Grouped.with(LONGS, ARRAYS))
                        .aggregate(
                                () -> NONE,
                                (seller, entry, winners) -> with(winners, entry),
                                (seller, entry, winners) -> without(winners, entry),
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .mapValues(AverageSellingPrice::meanOfLatest)
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, LONGS)),
                (events, watermark) -> {
                    Map<Long, long[]> winners = new HashMap<>();
                    for (JoinQueries.BidOnAuction joined : JoinQueries.bidsWithAuctions(events, watermark)) {
                        if (JoinQueries.inLifetime(joined.auction(), joined.bid())) {
                            winners.merge(
                                    joined.auction().id(),
                                    sellerBid(joined.auction(), joined.bid()),
                                    AverageSellingPrice::better);
                        }
                    }
                    Map<Long, long[]> sellers = new TreeMap<>();
                    winners.forEach((auction, winner) ->
                            sellers.merge(winner[0], entry(auction, winner), AverageSellingPrice::concat));
                    List<KeyValue<Long, Long>> rows = new ArrayList<>();
                    sellers.forEach((seller, list) ->
                            rows.add(KeyValue.pair(seller, Objects.requireNonNull(meanOfLatest(list)))));
                    return rows;
                });
    }

    /** A bid on an auction as q6 ranks it: {@code seller, price, time, bidder}. */
    private static long[] sellerBid(Auction auction, Bid bid) {
        return new long[] {auction.seller(), bid.price(), bid.dateTime(), bid.bidder()};
    }

    /** The better of two bids of one auction, in q9's order; {@code first} if they rank the same. */
    private static long[] better(long[] first, long[] second) {
        return TopBids.compare(second[1], second[2], second[3], first[1], first[2], first[3]) < 0 ? second : first;
    }

    private static long[] entry(long auction, long[] winner) {
        return new long[] {auction, winner[2], winner[1]};
    }

    /** {@code winners} with {@code entry} in place of any entry of the same auction. */
    private static long[] with(long[] winners, long[] entry) {
        return concat(without(winners, entry[0], null), entry);
    }

    /** {@code winners} without {@code entry} (the same auction, time and price). */
    private static long[] without(long[] winners, long[] entry) {
        return without(winners, entry[0], entry);
    }

    private static long[] without(long[] winners, long auction, long @Nullable [] exactly) {
        for (int i = 0; i < winners.length; i += WIDTH) {
            if (winners[i] == auction && (exactly == null || Arrays.equals(winners, i, i + WIDTH, exactly, 0, WIDTH))) {
                long[] less = new long[winners.length - WIDTH];
                System.arraycopy(winners, 0, less, 0, i);
                System.arraycopy(winners, i + WIDTH, less, i, winners.length - i - WIDTH);
                return less;
            }
        }
        return winners;
    }

    private static long[] concat(long[] a, long[] b) {
        long[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** The mean price of the {@value #LAST} latest entries (by time, then auction); null for none. */
    private static @Nullable Long meanOfLatest(long[] winners) {
        int count = winners.length / WIDTH;
        if (count == 0) {
            return null;
        }
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> {
            int byTime = Long.compare(winners[y * WIDTH + 1], winners[x * WIDTH + 1]);
            return byTime != 0 ? byTime : Long.compare(winners[y * WIDTH], winners[x * WIDTH]);
        });
        int taken = Math.min(LAST, count);
        long sum = 0;
        for (int i = 0; i < taken; i++) {
            sum += winners[order[i] * WIDTH + 2];
        }
        return sum / taken;
    }
}
