package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Nexmark queries that look at one bid at a time, keyed by the bid's auction: pass-through (q0),
 * projections (q1, q14, q21, q22) and a filter (q2). Each is a filter and a value mapping in both
 * engines; the functions that decide are shared, so both engines and the reference do the same work per
 * bid.
 */
final class StatelessQueries {

    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<String> STRINGS = Serdes.String();
    private static final Pattern CHANNEL_ID = Pattern.compile("(&|^)channel_id=([^&]*)");

    private StatelessQueries() {}

    static List<NexmarkQuery<?, ?>> all() {
        return List.of(
                query("q0", "pass-through: every bid", NexmarkSerdes.bid(), b -> true, b -> b),
                query(
                        "q1",
                        "currency conversion: every bid, its price in euros",
                        NexmarkSerdes.bid(),
                        b -> true,
                        StatelessQueries::inEuros),
                query(
                        "q2",
                        "selection: the price of bids on every 123rd auction",
                        LONGS,
                        b -> b.auction() % 123 == 0,
                        Bid::price),
                query(
                        "q14",
                        "calculation: bids of 1M-50M euros, with the time of day and the 'c's of their extra",
                        STRINGS,
                        StatelessQueries::midRange,
                        StatelessQueries::q14),
                query(
                        "q21",
                        "add channel id: the bids whose channel is known or whose url names one",
                        STRINGS,
                        b -> channelId(b) != null,
                        StatelessQueries::q21),
                query(
                        "q22",
                        "url directories: every bid with the first three directories of its url",
                        STRINGS,
                        b -> true,
                        StatelessQueries::q22));
    }

    /**
     * A query that keeps the bids {@code keep} accepts and maps each to {@code result}, keyed by its
     * auction.
     */
    private static <V> NexmarkQuery<Long, V> query(
            String name, String description, Serde<V> values, Predicate<Bid> keep, Function<Bid, V> result) {
        return new NexmarkQuery<>(
                name,
                description,
                OutputShape.APPEND,
                LONGS,
                values,
                (builder, sources, output) -> sources.bids(builder)
                        .filter((auction, bid) -> keep.test(bid))
                        .mapValues(result)
                        .to(output, Produced.with(LONGS, values)),
                (builder, sources, output) -> sources.bids(builder)
                        .filter((auction, bid) -> keep.test(bid))
                        .mapValues(result::apply)
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, values)),
                (events, watermark) -> {
                    List<KeyValue<Long, V>> results = new ArrayList<>();
                    for (Event event : events) {
                        if (event instanceof Bid bid && keep.test(bid)) {
                            results.add(KeyValue.pair(bid.auction(), result.apply(bid)));
                        }
                    }
                    return results;
                });
    }

    /** Nexmark's dollar-to-euro rate, 0.908, in whole cents. */
    static long euros(long dollars) {
        return dollars * 908 / 1000;
    }

    private static Bid inEuros(Bid b) {
        return new Bid(b.auction(), b.bidder(), euros(b.price()), b.channel(), b.url(), b.dateTime(), b.extra());
    }

    private static boolean midRange(Bid b) {
        long price = euros(b.price());
        return price > 1_000_000 && price < 50_000_000;
    }

    private static String q14(Bid b) {
        int hour = Instant.ofEpochMilli(b.dateTime()).atOffset(ZoneOffset.UTC).getHour();
        String timeOfDay = hour >= 8 && hour <= 18 ? "dayTime" : hour <= 6 || hour >= 20 ? "nightTime" : "otherTime";
        long cs = b.extra().chars().filter(c -> c == 'c').count();
        return Rows.of(b.bidder(), euros(b.price()), timeOfDay, b.dateTime(), cs);
    }

    /** q21's channel id: the known channels' numbers, else the url's {@code channel_id} parameter. */
    private static @Nullable String channelId(Bid b) {
        return switch (b.channel().toLowerCase(Locale.ROOT)) {
            case "apple" -> "0";
            case "google" -> "1";
            case "facebook" -> "2";
            case "baidu" -> "3";
            default -> {
                Matcher m = CHANNEL_ID.matcher(b.url());
                yield m.find() ? m.group(2) : null;
            }
        };
    }

    private static String q21(Bid b) {
        return Rows.of(b.bidder(), b.price(), b.channel(), channelId(b));
    }

    private static String q22(Bid b) {
        String[] parts = b.url().split("/", -1);
        return Rows.of(b.bidder(), b.price(), b.channel(), part(parts, 3), part(parts, 4), part(parts, 5));
    }

    private static @Nullable String part(String[] parts, int index) {
        return index < parts.length ? parts[index] : null;
    }
}
