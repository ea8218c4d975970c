package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * q15 and q16, the bidding and channel statistics reports: per UTC day (q15) or per channel and day (q16),
 * the bids, the distinct bidders and the distinct auctions, each in all and per price rank (below $100, from
 * $100 to below $10,000, from $10,000 on); q16 also the latest minute of the day that had a bid. A row per
 * group.
 *
 * <p>Written as both libraries' users count distinct values: each bid becomes four facts (its bidder, its
 * bidder in its rank, its auction, its auction in its rank), counted per fact; that table, re-grouped by the
 * report's group, adds one to a distinct count when a fact first appears (the adder) and the subtractor
 * takes back what a later sighting re-adds, so a fact seen again changes nothing. The plain counts are an
 * aggregate of their own, and the two tables join on the group. The Nexmark suite writes both as one
 * SQL {@code GROUP BY} with {@code count(distinct ...) filter (where ...)}; neither library has a
 * distinct count.
 */
final class BidStatistics {

    private static final Serde<String> STRINGS = Serdes.String();
    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;
    private static final Serde<Bid> BIDS = NexmarkSerdes.bid();
    private static final long DAY_MS = 24L * 60 * 60 * 1000;
    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final String SEPARATOR = "\t";

    /** Bids, bids per rank (1 to 3), the latest bid's time. */
    private static final long[] NO_BIDS = {0, 0, 0, 0, Long.MIN_VALUE};

    /** Distinct bidders, bidders per rank, distinct auctions, auctions per rank: the facts' kinds. */
    private static final long[] NO_FACTS = new long[8];

    private static final int AUCTION_FACTS = 4;

    private BidStatistics() {}

    static List<NexmarkQuery<?, ?>> all() {
        return List.of(
                query(
                        "q15",
                        "bidding statistics report: per day, bids, bidders and auctions, in all and per price rank",
                        BidStatistics::day,
                        false),
                query(
                        "q16",
                        "channel statistics report: q15 per channel and day, with the day's latest minute of bids",
                        bid -> bid.channel() + SEPARATOR + day(bid),
                        true));
    }

    private static NexmarkQuery<String, String> query(
            String name, String description, Function<Bid, String> group, boolean withMinute) {
        return new NexmarkQuery<>(
                name,
                description,
                OutputShape.UPSERT,
                STRINGS,
                STRINGS,
                (builder, sources, output) -> {
                    var bids = sources.bids(builder);
                    var counts = bids.groupBy((auction, bid) -> group.apply(bid), Grouped.with(STRINGS, BIDS))
                            .aggregate(
                                    () -> NO_BIDS, (g, bid, c) -> withBid(c, bid), Materialized.with(STRINGS, ARRAYS));
                    var distinct = bids.flatMap((auction, bid) -> facts(group.apply(bid), bid).stream()
                                    .map(f -> KeyValue.pair(f, 1L))
                                    .toList())
                            .groupByKey(Grouped.with(STRINGS, LONGS))
                            .count()
                            .groupBy(
                                    (fact, seen) -> KeyValue.pair(groupOf(fact), kindOf(fact)),
                                    Grouped.with(STRINGS, LONGS))
                            .aggregate(
                                    () -> NO_FACTS,
                                    (g, kind, d) -> plus(d, kind, 1),
                                    (g, kind, d) -> plus(d, kind, -1),
                                    Materialized.with(STRINGS, ARRAYS));
                    counts.join(distinct, (c, d) -> row(c, d, withMinute))
                            .toStream()
                            .to(output, Produced.with(STRINGS, STRINGS));
                },
                (builder, sources, output) -> {
                    var bids = sources.bids(builder);
                    var counts = bids.groupBy(
                                    (auction, bid) -> group.apply(bid),
                                    org.apache.kafka.streams.kstream.Grouped.with(STRINGS, BIDS))
                            .aggregate(
                                    () -> NO_BIDS,
                                    (g, bid, c) -> withBid(c, bid),
                                    org.apache.kafka.streams.kstream.Materialized.with(STRINGS, ARRAYS));
                    var distinct = bids.flatMap((auction, bid) -> facts(group.apply(bid), bid).stream()
                                    .map(f -> org.apache.kafka.streams.KeyValue.pair(f, 1L))
                                    .toList())
                            .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(STRINGS, LONGS))
                            .count()
                            .groupBy(
                                    (fact, seen) -> org.apache.kafka.streams.KeyValue.pair(groupOf(fact), kindOf(fact)),
                                    org.apache.kafka.streams.kstream.Grouped.with(STRINGS, LONGS))
                            .aggregate(
                                    () -> NO_FACTS,
                                    (g, kind, d) -> plus(d, kind, 1),
                                    (g, kind, d) -> plus(d, kind, -1),
                                    org.apache.kafka.streams.kstream.Materialized.with(STRINGS, ARRAYS));
                    counts.join(distinct, (c, d) -> row(c, d, withMinute))
                            .toStream()
                            .to(output, org.apache.kafka.streams.kstream.Produced.with(STRINGS, STRINGS));
                },
                (events, watermark) -> {
                    Map<String, long[]> counts = new LinkedHashMap<>();
                    Map<String, List<Set<Long>>> distinct = new LinkedHashMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            String g = group.apply(b);
                            counts.merge(g, withBid(NO_BIDS, b), BidStatistics::merged);
                            List<Set<Long>> sets = distinct.computeIfAbsent(g, k -> {
                                List<Set<Long>> fresh = new ArrayList<>();
                                for (int i = 0; i < NO_FACTS.length; i++) {
                                    fresh.add(new HashSet<>());
                                }
                                return fresh;
                            });
                            int rank = rank(b);
                            sets.get(0).add(b.bidder());
                            sets.get(rank).add(b.bidder());
                            sets.get(AUCTION_FACTS).add(b.auction());
                            sets.get(AUCTION_FACTS + rank).add(b.auction());
                        }
                    }
                    List<KeyValue<String, String>> rows = new ArrayList<>();
                    counts.forEach((g, c) -> {
                        long[] d = Objects.requireNonNull(distinct.get(g)).stream()
                                .mapToLong(Set::size)
                                .toArray();
                        rows.add(KeyValue.pair(g, row(c, d, withMinute)));
                    });
                    return rows;
                });
    }

    private static String day(Bid bid) {
        return LocalDate.ofEpochDay(Math.floorDiv(bid.dateTime(), DAY_MS)).toString();
    }

    /** A bid's price rank: 1 below $100, 2 below $10,000, 3 from there on. */
    private static int rank(Bid bid) {
        return bid.price() < AggregateQueries.LOW ? 1 : bid.price() < AggregateQueries.HIGH ? 2 : 3;
    }

    private static long[] withBid(long[] counts, Bid bid) {
        long[] more = counts.clone();
        more[0]++;
        more[rank(bid)]++;
        more[4] = Math.max(more[4], bid.dateTime());
        return more;
    }

    private static long[] merged(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], Math.max(a[4], b[4])};
    }

    /** A bid's four facts: {@code group, kind, id}, separated by tabs. */
    private static List<String> facts(String group, Bid bid) {
        int rank = rank(bid);
        return List.of(
                fact(group, 0, bid.bidder()),
                fact(group, rank, bid.bidder()),
                fact(group, AUCTION_FACTS, bid.auction()),
                fact(group, AUCTION_FACTS + rank, bid.auction()));
    }

    private static String fact(String group, int kind, long id) {
        return group + SEPARATOR + kind + SEPARATOR + id;
    }

    /** A fact's group: everything before its last two fields (a q16 group holds a separator itself). */
    private static String groupOf(String fact) {
        return fact.substring(0, fact.lastIndexOf(SEPARATOR, fact.lastIndexOf(SEPARATOR) - 1));
    }

    private static long kindOf(String fact) {
        int last = fact.lastIndexOf(SEPARATOR);
        return Long.parseLong(fact.substring(fact.lastIndexOf(SEPARATOR, last - 1) + 1, last));
    }

    private static long[] plus(long[] distinct, long kind, int by) {
        long[] changed = distinct.clone();
        changed[(int) kind] += by;
        return changed;
    }

    /** The report's row: q16's latest minute first, then the bids, bidders and auctions, each in all and per rank. */
    private static String row(long[] counts, long[] distinct, boolean withMinute) {
        List<Object> fields = new ArrayList<>();
        if (withMinute) {
            fields.add(MINUTE.format(Instant.ofEpochMilli(counts[4])));
        }
        for (int i = 0; i < 4; i++) {
            fields.add(counts[i]);
        }
        for (long d : distinct) {
            fields.add(d);
        }
        return Rows.of(fields.toArray());
    }
}
