package io.weir.benchmarks.nexmark;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every Nexmark query, in both engines, through their test drivers on a small input (50 s of event time
 * at 100 events a second, then the closing events): each engine's output must equal the query's
 * brute-force reference. The smoke version of the benchmark: it checks what the queries compute, on
 * every build; the benchmark measures them on a broker.
 */
class NexmarkQueriesTest {

    // 50 s of event time across a UTC midnight, so that the queries per day (q15, q16, q17) have two.
    private static final NexmarkConfig CONFIG = NexmarkConfig.defaults()
            .withSeed(7)
            .withEvents(5_000)
            .withFirstEventRate(100)
            .withBaseTime(Instant.parse("2023-12-31T23:59:35Z").toEpochMilli());
    private static final Duration OUT_OF_ORDER = NexmarkSources.outOfOrder(CONFIG);
    private static final List<Event> EVENTS = events();

    static Stream<String> queries() {
        return NexmarkQueries.all().stream().map(NexmarkQuery::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void bothEnginesComputeTheReference(String name) {
        NexmarkQuery<?, ?> query = NexmarkQueries.named(name);
        long watermark = EVENTS.get(EVENTS.size() - 1).dateTime() - OUT_OF_ORDER.toMillis();
        Results expected = Results.expected(query, EVENTS, watermark);
        // A query whose filter matches nothing in the input would check nothing.
        assertTrue(expected.size() > 1, "the reference has " + expected.size() + " results");

        NexmarkDrivers.weir(query, EVENTS, OUT_OF_ORDER).check(expected, "Weir's " + name);
        NexmarkDrivers.kafkaStreams(query, EVENTS, OUT_OF_ORDER).check(expected, "Kafka Streams' " + name);
    }

    /**
     * The joins of bids with their auctions do not depend on how the two topics interleave: with every
     * person and auction piped before the first bid, as a consumer of a pre-loaded input may read them, far
     * ahead of the bids, both engines still compute the reference.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"q4", "q9", "q20"})
    void bidsJoinTheirAuctionsHoweverFarAheadTheAuctionsAreRead(String name) {
        NexmarkQuery<?, ?> query = NexmarkQueries.named(name);
        List<Event> auctionsFirst = new ArrayList<>();
        EVENTS.stream().filter(e -> !(e instanceof Bid)).forEach(auctionsFirst::add);
        EVENTS.stream().filter(e -> e instanceof Bid).forEach(auctionsFirst::add);
        long watermark = auctionsFirst.get(auctionsFirst.size() - 1).dateTime() - OUT_OF_ORDER.toMillis();
        Results expected = Results.expected(query, auctionsFirst, watermark);
        assertTrue(expected.size() > 1, "the reference has " + expected.size() + " results");

        NexmarkDrivers.weir(query, auctionsFirst, OUT_OF_ORDER).check(expected, "Weir's " + name);
        NexmarkDrivers.kafkaStreams(query, auctionsFirst, OUT_OF_ORDER).check(expected, "Kafka Streams' " + name);
    }

    private static List<Event> events() {
        List<Event> events = new ArrayList<>();
        new NexmarkGenerator(CONFIG).forEachRemaining(events::add);
        long last = events.stream().mapToLong(Event::dateTime).max().orElseThrow();
        events.addAll(ClosingEvents.after(last, 1));
        return events;
    }
}
