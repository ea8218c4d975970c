package io.weir.benchmarks.nexmark;

import java.time.Duration;
import java.time.Instant;

/**
 * What a {@link NexmarkGenerator} makes: the knobs of Nexmark's reference generators, with their
 * defaults. Immutable; each {@code withXxx} returns a copy with one knob changed, and every constructor
 * call checks the values, failing with an {@link IllegalArgumentException} that names the knob.
 *
 * <p>Of every {@value #TOTAL_PROPORTION} consecutive event ids, {@value #PERSON_PROPORTION} is a
 * person, {@value #AUCTION_PROPORTION} are auctions and {@value #BID_PROPORTION} are bids (2%, 6% and
 * 92%), as in the reference; the proportions are fixed here.
 *
 * @param seed what, with an event's id, seeds the random choices of that event: the same seed makes the
 *     same events
 * @param events how many events the stream has
 * @param firstEventRate events per second of event time; the reference's {@code firstEventRate}, held
 *     constant (the reference can also step or swing it)
 * @param baseTime event 0's event time, epoch milliseconds
 * @param outOfOrderGroupSize the stream is cut into groups of this many consecutive events, each emitted
 *     in a scrambled order; 1 keeps the stream in event-time order
 * @param numActivePeople how many of the latest persons an auction's seller or a bid's bidder is drawn
 *     from, when not a hot one
 * @param numInFlightAuctions how many of the latest auctions a bid's auction is drawn from, when not a
 *     hot one; it also sets how long auctions stay open
 * @param hotAuctionRatio a bid is on a hot auction with probability 1 - 1/this
 * @param hotSellersRatio an auction is by a hot seller with probability 1 - 1/this
 * @param hotBiddersRatio a bid is by a hot bidder with probability 1 - 1/this
 * @param avgPersonByteSize the average size a person is padded to by its {@code extra} field, in bytes
 *     as the reference counts them (8 for some numbers, 1 per character of most text)
 * @param avgAuctionByteSize the same for an auction
 * @param avgBidByteSize the same for a bid
 */
public record NexmarkConfig(
        long seed,
        long events,
        int firstEventRate,
        long baseTime,
        int outOfOrderGroupSize,
        int numActivePeople,
        int numInFlightAuctions,
        int hotAuctionRatio,
        int hotSellersRatio,
        int hotBiddersRatio,
        int avgPersonByteSize,
        int avgAuctionByteSize,
        int avgBidByteSize) {

    public static final int PERSON_PROPORTION = 1;
    public static final int AUCTION_PROPORTION = 3;
    public static final int BID_PROPORTION = 46;
    public static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

    /**
     * The most events a stream may have: enough for years of event time at millions a second, and few
     * enough that no event-time or id computation can overflow.
     */
    public static final long MAX_EVENTS = 1L << 50;

    /** The latest base time: the last millisecond of year 9999. */
    public static final long MAX_BASE_TIME =
            Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();

    /** A fixed instant, so that every run without a base time of its own makes the same events. */
    public static final long DEFAULT_BASE_TIME =
            Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

    public NexmarkConfig {
        check(events >= 1 && events <= MAX_EVENTS, "events", events, "between 1 and " + MAX_EVENTS);
        positive("firstEventRate", firstEventRate);
        // Kafka refuses negative record timestamps; the upper bound keeps event times from overflowing.
        check(
                baseTime >= 0 && baseTime <= MAX_BASE_TIME,
                "baseTime",
                baseTime,
                "an epoch millisecond between 0 and " + MAX_BASE_TIME + " (the end of year 9999)");
        positive("outOfOrderGroupSize", outOfOrderGroupSize);
        positive("numActivePeople", numActivePeople);
        positive("numInFlightAuctions", numInFlightAuctions);
        positive("hotAuctionRatio", hotAuctionRatio);
        positive("hotSellersRatio", hotSellersRatio);
        positive("hotBiddersRatio", hotBiddersRatio);
        positive("avgPersonByteSize", avgPersonByteSize);
        positive("avgAuctionByteSize", avgAuctionByteSize);
        positive("avgBidByteSize", avgBidByteSize);
    }

    /**
     * The reference's defaults: 10,000 events a second, in event-time order, 1,000 active people, 100
     * auctions in flight, hot ratios 2 (auctions), 4 (sellers) and 4 (bidders), average sizes 200, 500
     * and 100 bytes; and here seed 0, 100 million events (the reference suite's count), starting at
     * {@link #DEFAULT_BASE_TIME}.
     */
    public static NexmarkConfig defaults() {
        return new NexmarkConfig(0L, 100_000_000L, 10_000, DEFAULT_BASE_TIME, 1, 1000, 100, 2, 4, 4, 200, 500, 100);
    }

    /**
     * The largest amount by which an event's time can be older than that of an event emitted before it:
     * the span of event time one out-of-order group covers, zero when the stream is in order. A query
     * that lets its watermark trail the largest event time seen by this much, or grants this much grace,
     * drops no event as late.
     */
    public Duration maxOutOfOrderness() {
        // Event times are floor(n * 1000 / rate) ms; two events g - 1 apart differ by at most the ceiling
        // of (g - 1) * 1000 / rate.
        long spanTimesRate = (outOfOrderGroupSize - 1L) * 1000L;
        return Duration.ofMillis((spanTimesRate + firstEventRate - 1) / firstEventRate);
    }

    /** The event time of the event with id {@code eventId}: {@code baseTime} plus its share of the rate. */
    public long eventTime(long eventId) {
        return baseTime + eventId * 1000L / firstEventRate;
    }

    public NexmarkConfig withSeed(long seed) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withEvents(long events) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withFirstEventRate(int firstEventRate) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withBaseTime(long baseTime) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withOutOfOrderGroupSize(int outOfOrderGroupSize) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withNumActivePeople(int numActivePeople) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    public NexmarkConfig withNumInFlightAuctions(int numInFlightAuctions) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    /** Sets the three hot ratios: bids on hot auctions, auctions by hot sellers, bids by hot bidders. */
    public NexmarkConfig withHotRatios(int hotAuctionRatio, int hotSellersRatio, int hotBiddersRatio) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    /** Sets the three average sizes, in bytes: of a person, an auction and a bid. */
    public NexmarkConfig withAvgByteSizes(int avgPersonByteSize, int avgAuctionByteSize, int avgBidByteSize) {
        return new NexmarkConfig(
                seed,
                events,
                firstEventRate,
                baseTime,
                outOfOrderGroupSize,
                numActivePeople,
                numInFlightAuctions,
                hotAuctionRatio,
                hotSellersRatio,
                hotBiddersRatio,
                avgPersonByteSize,
                avgAuctionByteSize,
                avgBidByteSize);
    }

    private static void positive(String knob, long value) {
        check(value >= 1, knob, value, "positive");
    }

    private static void check(boolean ok, String knob, long value, String must) {
        if (!ok) {
            throw new IllegalArgumentException("NexmarkConfig." + knob + " must be " + must + ", not " + value);
        }
    }
}
