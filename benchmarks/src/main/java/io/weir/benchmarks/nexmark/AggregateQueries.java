package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Nexmark queries that aggregate bids per key with no windows, into tables that update with every
 * bid: statistics per auction and day (q17), the last bid per bidder and auction (q18), and the ten best
 * bids per auction (q19). The aggregators are shared by both engines; the references compute each row
 * from all of its bids at once.
 */
final class AggregateQueries {

    /** How many bids q19 keeps per auction. */
    static final int TOP = 10;

    /** Below this price (in cents), q17 counts a bid in its lowest range. */
    static final long LOW = 10_000;

    /** From this price (in cents) on, q17 counts a bid in its highest range. */
    static final long HIGH = 1_000_000;

    private static final long DAY_MS = 86_400_000L;
    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<String> STRINGS = Serdes.String();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;
    private static final Serde<Bid> BIDS = NexmarkSerdes.bid();

    /**
     * q17's statistics before any bid: {@code [bids, low, middle, high, min price, max price, sum of
     * prices]}.
     */
    private static final long[] NO_STATISTICS = {0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE, 0};

    private AggregateQueries() {}

    static List<NexmarkQuery<?, ?>> all() {
        return List.of(auctionStatistics(), lastBids(), topBids());
    }

    /**
     * q17: per auction and UTC day, the number of bids, of bids below $100, from $100 to below $10,000 and
     * from $10,000 on, and the lowest, highest, average (rounded down) and total price. Bids re-keyed by
     * auction and day, aggregated; a row per auction and day.
     */
    static NexmarkQuery<String, String> auctionStatistics() {
        return new NexmarkQuery<>(
                "q17",
                "auction statistics: per auction and day, bids per price range, min, max, average and sum",
                OutputShape.UPSERT,
                STRINGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> auctionDay(bid), Grouped.with(STRINGS, BIDS))
                        .aggregate(
                                () -> NO_STATISTICS,
                                (auctionDay, bid, statistics) -> withBid(statistics, bid.price()),
                                Materialized.with(STRINGS, ARRAYS))
                        .mapValues(AggregateQueries::statisticsRow)
                        .toStream()
                        .to(output, Produced.with(STRINGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy(
                                (auction, bid) -> auctionDay(bid),
                                org.apache.kafka.streams.kstream.Grouped.with(STRINGS, BIDS))
                        .aggregate(
                                () -> NO_STATISTICS,
                                (auctionDay, bid, statistics) -> withBid(statistics, bid.price()),
                                org.apache.kafka.streams.kstream.Materialized.with(STRINGS, ARRAYS))
                        .mapValues(AggregateQueries::statisticsRow)
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(STRINGS, STRINGS)),
                (events, watermark) -> {
                    Map<String, List<Long>> prices = new LinkedHashMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            prices.computeIfAbsent(auctionDay(b), k -> new ArrayList<>())
                                    .add(b.price());
                        }
                    }
                    List<KeyValue<String, String>> rows = new ArrayList<>();
                    prices.forEach((auctionDay, ps) -> {
                        long[] statistics = {
                            ps.size(),
                            ps.stream().filter(p -> p < LOW).count(),
                            ps.stream().filter(p -> p >= LOW && p < HIGH).count(),
                            ps.stream().filter(p -> p >= HIGH).count(),
                            ps.stream().mapToLong(Long::longValue).min().orElseThrow(),
                            ps.stream().mapToLong(Long::longValue).max().orElseThrow(),
                            ps.stream().mapToLong(Long::longValue).sum()
                        };
                        rows.add(KeyValue.pair(auctionDay, statisticsRow(statistics)));
                    });
                    return rows;
                });
    }

    /** q17's key: the bid's auction and the UTC date of its event time. */
    private static String auctionDay(Bid bid) {
        return Rows.of(bid.auction(), LocalDate.ofEpochDay(Math.floorDiv(bid.dateTime(), DAY_MS)));
    }

    /** {@code statistics} with a bid of {@code price} counted in; a new array. */
    private static long[] withBid(long[] statistics, long price) {
        long[] more = statistics.clone();
        more[0]++;
        more[price < LOW ? 1 : price < HIGH ? 2 : 3]++;
        more[4] = Math.min(more[4], price);
        more[5] = Math.max(more[5], price);
        more[6] += price;
        return more;
    }

    /** q17's row: the counts, the lowest and highest price, the average (rounded down) and the total. */
    private static String statisticsRow(long[] s) {
        return Rows.of(s[0], s[1], s[2], s[3], s[4], s[5], s[6] / s[0], s[6]);
    }

    /**
     * q18: each bidder's last bid on each auction, the one of the latest event time (of two at the same
     * time, the later in the input). Bids re-keyed by bidder and auction, reduced; a row per bidder and
     * auction. The input keeps the order of a bidder's bids on an auction through the re-keying: they are
     * all in their auction's partition.
     */
    static NexmarkQuery<String, Bid> lastBids() {
        return new NexmarkQuery<>(
                "q18",
                "find last bid: each bidder's last bid on each auction",
                OutputShape.UPSERT,
                STRINGS,
                BIDS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> bidderAuction(bid), Grouped.with(STRINGS, BIDS))
                        .reduce(AggregateQueries::later, Materialized.with(STRINGS, BIDS))
                        .toStream()
                        .to(output, Produced.with(STRINGS, BIDS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy(
                                (auction, bid) -> bidderAuction(bid),
                                org.apache.kafka.streams.kstream.Grouped.with(STRINGS, BIDS))
                        .reduce(
                                AggregateQueries::later,
                                org.apache.kafka.streams.kstream.Materialized.with(STRINGS, BIDS))
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(STRINGS, BIDS)),
                (events, watermark) -> {
                    Map<String, Bid> last = new LinkedHashMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            last.merge(bidderAuction(b), b, AggregateQueries::later);
                        }
                    }
                    List<KeyValue<String, Bid>> rows = new ArrayList<>();
                    last.forEach((bidderAuction, bid) -> rows.add(KeyValue.pair(bidderAuction, bid)));
                    return rows;
                });
    }

    private static String bidderAuction(Bid bid) {
        return Rows.of(bid.bidder(), bid.auction());
    }

    /** The later of a bidder's two bids on an auction: {@code next} unless it happened before {@code last}. */
    private static Bid later(Bid last, Bid next) {
        return next.dateTime() >= last.dateTime() ? next : last;
    }

    /**
     * q19: each auction's ten best bids ({@link TopBids#ORDER}: the highest price, then the earliest, then
     * the lowest bidder), a top-N aggregate per auction, no re-keying; a row per auction, its bids best
     * first.
     */
    static NexmarkQuery<Long, String> topBids() {
        return new NexmarkQuery<>(
                "q19",
                "auction top-N: each auction's ten highest bids",
                OutputShape.UPSERT,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupByKey()
                        .aggregate(
                                () -> TopBids.EMPTY,
                                (auction, bid, top) -> TopBids.add(top, bid, TOP),
                                Materialized.with(LONGS, ARRAYS))
                        .mapValues(TopBids::text)
                        .toStream()
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupByKey()
                        .aggregate(
                                () -> TopBids.EMPTY,
                                (auction, bid, top) -> TopBids.add(top, bid, TOP),
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .mapValues(TopBids::text)
                        .toStream()
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    Map<Long, List<Bid>> bids = new LinkedHashMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            bids.computeIfAbsent(b.auction(), k -> new ArrayList<>())
                                    .add(b);
                        }
                    }
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    bids.forEach((auction, all) -> {
                        List<Bid> best =
                                all.stream().sorted(TopBids.ORDER).limit(TOP).toList();
                        rows.add(KeyValue.pair(auction, TopBids.text(TopBids.of(best))));
                    });
                    return rows;
                });
    }
}
