package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Nexmark queries over event-time windows: hot items (q5, hopping windows), highest bid (q7,
 * tumbling), new users who sell at once (q8, a windowed join) and bidder sessions (q11). Each window's
 * result is written once, when the window closes: Weir's default on-time pane; in Kafka Streams, with the
 * input's out-of-order bound as grace, {@code suppress(untilWindowCloses(unbounded()))}. Not
 * {@code emitStrategy(onWindowClose())}, its newer way: it looks for closed windows only while it processes
 * a record, at most once a second of wall-clock time, so the last windows of an input that stops (the
 * benchmark's pre-loaded one) never come out — a broker run of q7 waited for them for ten minutes — and
 * for sessions it wrote 16 of the 122 sessions of the smoke test's input even with its clock moved along.
 * The output carries the window's start in the key, so both engines write the same records.
 */
final class WindowQueries {

    static final Duration SIZE = Duration.ofSeconds(10);
    static final Duration HOP = Duration.ofSeconds(2);
    static final Duration GAP = Duration.ofSeconds(10);

    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<String> STRINGS = Serdes.String();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;

    private WindowQueries() {}

    static List<NexmarkQuery<?, ?>> all() {
        return List.of(hotItems(), highestBid(), newSellers(), sessions());
    }

    /**
     * q5: in every 10-second window sliding by 2 seconds, the auctions with the most bids. Bids are counted
     * per auction and window, then the counts of a window are brought together (re-keyed by the window's
     * start) to keep the largest: a table of windows, its rows final once every count of a window has come.
     */
    static NexmarkQuery<Long, String> hotItems() {
        return new NexmarkQuery<>(
                "q5",
                "hot items: the auctions with the most bids in each 10 s window sliding by 2 s",
                OutputShape.UPSERT,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupByKey()
                        .windowedBy(HoppingWindows.of(SIZE, HOP))
                        .count()
                        .toStream()
                        .map((window, count) ->
                                KeyValue.pair(window.window().start(), new long[] {window.key(), count}))
                        .groupByKey(Grouped.with(LONGS, ARRAYS))
                        .aggregate(
                                () -> Maxima.EMPTY,
                                (start, auctionCount, max) -> Maxima.add(max, auctionCount[1], auctionCount[0]),
                                Materialized.with(LONGS, ARRAYS))
                        .toStream()
                        .mapValues(max -> Maxima.text(max, 1))
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupByKey()
                        .windowedBy(TimeWindows.ofSizeAndGrace(SIZE, sources.outOfOrder())
                                .advanceBy(HOP))
                        .count()
                        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                        .toStream()
                        .map((window, count) -> org.apache.kafka.streams.KeyValue.pair(
                                window.window().start(), new long[] {window.key(), count}))
                        .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(LONGS, ARRAYS))
                        .aggregate(
                                () -> Maxima.EMPTY,
                                (start, auctionCount, max) -> Maxima.add(max, auctionCount[1], auctionCount[0]),
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .toStream()
                        .mapValues(max -> Maxima.text(max, 1))
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    long size = SIZE.toMillis();
                    long hop = HOP.toMillis();
                    Map<Long, Map<Long, Long>> counts = new TreeMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            long last = Math.floorDiv(b.dateTime(), hop) * hop;
                            for (long start = last; start > b.dateTime() - size; start -= hop) {
                                counts.computeIfAbsent(start, s -> new HashMap<>())
                                        .merge(b.auction(), 1L, Long::sum);
                            }
                        }
                    }
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    counts.forEach((start, byAuction) -> {
                        if (start + size <= watermark) {
                            long[] max = Maxima.EMPTY;
                            for (Map.Entry<Long, Long> c : byAuction.entrySet()) {
                                max = Maxima.add(max, c.getValue(), c.getKey());
                            }
                            rows.add(KeyValue.pair(start, Maxima.text(max, 1)));
                        }
                    });
                    return rows;
                });
    }

    /**
     * q7: in every 10-second tumbling window, the bids with the highest price. All bids go to one key
     * (the query is global, in every engine), aggregated per window.
     */
    static NexmarkQuery<Long, String> highestBid() {
        Serde<Bid> bids = NexmarkSerdes.bid();
        return new NexmarkQuery<>(
                "q7",
                "highest bid: the bids of the highest price in each 10 s window",
                OutputShape.APPEND,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> 0L, Grouped.with(LONGS, bids))
                        .windowedBy(TumblingWindows.of(SIZE))
                        .aggregate(
                                () -> Maxima.EMPTY,
                                (all, bid, max) -> highest(max, bid),
                                Materialized.with(LONGS, ARRAYS))
                        .toStream()
                        .map((window, max) -> KeyValue.pair(window.window().start(), Maxima.text(max, 3)))
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> 0L, org.apache.kafka.streams.kstream.Grouped.with(LONGS, bids))
                        .windowedBy(TimeWindows.ofSizeAndGrace(SIZE, sources.outOfOrder()))
                        .aggregate(
                                () -> Maxima.EMPTY,
                                (all, bid, max) -> highest(max, bid),
                                org.apache.kafka.streams.kstream.Materialized.with(LONGS, ARRAYS))
                        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                        .toStream()
                        .map((window, max) -> org.apache.kafka.streams.KeyValue.pair(
                                window.window().start(), Maxima.text(max, 3)))
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    long size = SIZE.toMillis();
                    Map<Long, long[]> windows = new TreeMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            windows.merge(
                                    Math.floorDiv(b.dateTime(), size) * size,
                                    highest(Maxima.EMPTY, b),
                                    (a, n) -> Maxima.add(a, n[0], n[1], n[2], n[3]));
                        }
                    }
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    windows.forEach((start, max) -> {
                        if (start + size <= watermark) {
                            rows.add(KeyValue.pair(start, Maxima.text(max, 3)));
                        }
                    });
                    return rows;
                });
    }

    private static long[] highest(long[] max, Bid bid) {
        return Maxima.add(max, bid.price(), bid.auction(), bid.bidder(), bid.dateTime());
    }

    /**
     * q8: the persons who put up an auction in the same 10-second tumbling window in which they joined: a
     * windowed join of persons with auctions by seller, kept where both fall into one window; a row per
     * person and window.
     */
    static NexmarkQuery<String, String> newSellers() {
        Serde<Person> persons = NexmarkSerdes.person();
        Serde<Auction> auctions = NexmarkSerdes.auction();
        long size = SIZE.toMillis();
        return new NexmarkQuery<>(
                "q8",
                "monitor new users: persons who sell in the 10 s window they joined in",
                OutputShape.UPSERT,
                STRINGS,
                STRINGS,
                (builder, sources, output) -> sources.persons(builder)
                        .join(
                                sources.auctions(builder).selectKey((id, auction) -> auction.seller()),
                                (person, auction) -> sameWindow(person, auction, size),
                                JoinWindows.of(SIZE),
                                StreamJoined.with(LONGS, persons, auctions))
                        .filter((id, row) -> row != null)
                        .map((id, row) -> KeyValue.pair(row.key(), row.value()))
                        .to(output, Produced.with(STRINGS, STRINGS)),
                (builder, sources, output) -> sources.persons(builder)
                        .join(
                                sources.auctions(builder).selectKey((id, auction) -> auction.seller()),
                                (person, auction) -> sameWindow(person, auction, size),
                                org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceAndGrace(
                                        SIZE, sources.outOfOrder()),
                                org.apache.kafka.streams.kstream.StreamJoined.with(LONGS, persons, auctions))
                        .filter((id, row) -> row != null)
                        .map((id, row) -> org.apache.kafka.streams.KeyValue.pair(row.key(), row.value()))
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(STRINGS, STRINGS)),
                (events, watermark) -> {
                    Map<Long, Person> byId = new HashMap<>();
                    for (Event e : events) {
                        if (e instanceof Person p) {
                            byId.put(p.id(), p);
                        }
                    }
                    // Whichever came first: an auction may name a seller whose person comes a little later.
                    Map<String, String> rows = new TreeMap<>();
                    for (Event e : events) {
                        if (e instanceof Auction a && byId.containsKey(a.seller())) {
                            KeyValue<String, String> row = sameWindow(byId.get(a.seller()), a, size);
                            if (row != null) {
                                rows.put(row.key(), row.value());
                            }
                        }
                    }
                    return rows.entrySet().stream()
                            .map(r -> KeyValue.pair(r.getKey(), r.getValue()))
                            .toList();
                });
    }

    /** q8's row of a person and an auction of theirs in the same window: {@code id@start -> name}, else null. */
    private static @org.jspecify.annotations.Nullable KeyValue<String, String> sameWindow(
            Person person, Auction auction, long size) {
        long start = Math.floorDiv(person.dateTime(), size) * size;
        if (start != Math.floorDiv(auction.dateTime(), size) * size) {
            return null;
        }
        return KeyValue.pair(person.id() + "@" + start, person.name());
    }

    /** q11: the bids of each bidder's sessions (10 s of inactivity closes one), a row per session. */
    static NexmarkQuery<String, Long> sessions() {
        Serde<Bid> bids = NexmarkSerdes.bid();
        return new NexmarkQuery<>(
                "q11",
                "user sessions: bids per bidder and session of 10 s inactivity",
                OutputShape.APPEND,
                STRINGS,
                LONGS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> bid.bidder(), Grouped.with(LONGS, bids))
                        .windowedBy(SessionWindows.withGap(GAP))
                        .count()
                        .toStream()
                        .map((session, count) -> KeyValue.pair(
                                session.key() + "@" + session.window().start(), count))
                        .to(output, Produced.with(STRINGS, LONGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy(
                                (auction, bid) -> bid.bidder(),
                                org.apache.kafka.streams.kstream.Grouped.with(LONGS, bids))
                        .windowedBy(org.apache.kafka.streams.kstream.SessionWindows.ofInactivityGapAndGrace(
                                GAP, sources.outOfOrder()))
                        .count()
                        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                        .toStream()
                        .map((session, count) -> org.apache.kafka.streams.KeyValue.pair(
                                session.key() + "@" + session.window().start(), count))
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(STRINGS, LONGS)),
                (events, watermark) -> {
                    long gap = GAP.toMillis();
                    Map<Long, List<Long>> times = new TreeMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            times.computeIfAbsent(b.bidder(), k -> new ArrayList<>())
                                    .add(b.dateTime());
                        }
                    }
                    List<KeyValue<String, Long>> rows = new ArrayList<>();
                    times.forEach((bidder, ts) -> {
                        ts.sort(null);
                        int first = 0;
                        for (int i = 1; i <= ts.size(); i++) {
                            if (i == ts.size() || ts.get(i) - ts.get(i - 1) > gap) {
                                if (ts.get(i - 1) + gap <= watermark) {
                                    rows.add(KeyValue.pair(bidder + "@" + ts.get(first), (long) (i - first)));
                                }
                                first = i;
                            }
                        }
                    });
                    return rows;
                });
    }
}
