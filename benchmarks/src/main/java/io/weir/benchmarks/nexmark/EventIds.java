package io.weir.benchmarks.nexmark;

import java.util.SplittableRandom;

/**
 * The arithmetic of Nexmark's ids. An event id says what the event makes: of each run of
 * {@value NexmarkConfig#TOTAL_PROPORTION} ids the first {@value NexmarkConfig#PERSON_PROPORTION} make
 * persons, the next {@value NexmarkConfig#AUCTION_PROPORTION} auctions, the rest bids; so the id of the
 * person or auction an event makes, and the latest ones that exist at any event, follow from the event
 * id alone, with no state. References pick among the latest entities, or a hot one most of the time.
 */
final class EventIds {

    /** Person and auction ids start here rather than at 0, so that no query confuses an id with a count. */
    static final long FIRST_PERSON_ID = 1000;

    static final long FIRST_AUCTION_ID = 1000;

    /**
     * How far past the latest id a random reference may reach: a few auctions and bids name an entity
     * that is about to be made, as if its event and theirs had been swapped in time.
     */
    static final int ID_LEAD = 10;

    /** A hot entity is the first (a hot bidder: the second) of the latest block of this many. */
    static final int HOT_BLOCK = 100;

    private EventIds() {}

    static boolean makesPerson(long eventId) {
        return eventId % NexmarkConfig.TOTAL_PROPORTION < NexmarkConfig.PERSON_PROPORTION;
    }

    static boolean makesAuction(long eventId) {
        long offset = eventId % NexmarkConfig.TOTAL_PROPORTION;
        return offset >= NexmarkConfig.PERSON_PROPORTION
                && offset < NexmarkConfig.PERSON_PROPORTION + NexmarkConfig.AUCTION_PROPORTION;
    }

    /** The person id (from 0) that event {@code eventId} makes, or else the latest one made before it. */
    static long lastPerson(long eventId) {
        long run = eventId / NexmarkConfig.TOTAL_PROPORTION;
        long offset = Math.min(eventId % NexmarkConfig.TOTAL_PROPORTION, NexmarkConfig.PERSON_PROPORTION - 1);
        return run * NexmarkConfig.PERSON_PROPORTION + offset;
    }

    /**
     * The auction id (from 0) that event {@code eventId} makes, or else the latest one made before it;
     * -1 before the first auction.
     */
    static long lastAuction(long eventId) {
        long run = eventId / NexmarkConfig.TOTAL_PROPORTION;
        long offset = eventId % NexmarkConfig.TOTAL_PROPORTION - NexmarkConfig.PERSON_PROPORTION;
        if (offset < 0) {
            // A person: the run's auctions are still to come; the latest is the previous run's last.
            return run * NexmarkConfig.AUCTION_PROPORTION - 1;
        }
        return run * NexmarkConfig.AUCTION_PROPORTION + Math.min(offset, NexmarkConfig.AUCTION_PROPORTION - 1);
    }

    /** The seller of the auction that event {@code eventId} makes. */
    static long seller(NexmarkConfig config, SplittableRandom random, long eventId) {
        long person = isHot(random, config.hotSellersRatio())
                ? hot(lastPerson(eventId))
                : recentPerson(config, random, eventId);
        return FIRST_PERSON_ID + person;
    }

    /** The bidder of the bid that event {@code eventId} makes. */
    static long bidder(NexmarkConfig config, SplittableRandom random, long eventId) {
        // The second of the block, so that the hot bidder is never the hot seller.
        long person = isHot(random, config.hotBiddersRatio())
                ? hot(lastPerson(eventId)) + 1
                : recentPerson(config, random, eventId);
        return FIRST_PERSON_ID + person;
    }

    /** The auction that the bid event {@code eventId} makes is on. */
    static long auctionOfBid(NexmarkConfig config, SplittableRandom random, long eventId) {
        long last = lastAuction(eventId);
        long auction;
        if (isHot(random, config.hotAuctionRatio())) {
            auction = hot(last);
        } else {
            // Auctions older than the in-flight ones have most likely expired.
            long oldest = Math.max(last - config.numInFlightAuctions(), 0);
            auction = oldest + random.nextLong(last - oldest + 1 + ID_LEAD);
        }
        return FIRST_AUCTION_ID + auction;
    }

    /** True with probability 1 - 1/{@code ratio}. */
    private static boolean isHot(SplittableRandom random, int ratio) {
        return random.nextInt(ratio) > 0;
    }

    private static long hot(long latest) {
        return latest / HOT_BLOCK * HOT_BLOCK;
    }

    /**
     * One of the {@code numActivePeople} latest persons or of the {@link #ID_LEAD} next: drawing from the
     * latest only keeps the number of auctions and bids per person steady however long the stream runs.
     */
    private static long recentPerson(NexmarkConfig config, SplittableRandom random, long eventId) {
        long people = lastPerson(eventId) + 1;
        long active = Math.min(people, config.numActivePeople());
        return people - active + random.nextLong(active + ID_LEAD);
    }
}
