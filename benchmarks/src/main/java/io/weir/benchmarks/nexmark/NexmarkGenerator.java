package io.weir.benchmarks.nexmark;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * The Nexmark event stream of a {@link NexmarkConfig}, or a stretch of it: persons, auctions and bids of
 * an online auction, following the rules of Nexmark's reference generators (docs/benchmarks/nexmark.md
 * lists them and where this one differs).
 *
 * <p>The stream is a pure function of the config. The event a generator returns as event number
 * {@code n} (its position in the stream) is made from its <em>event id</em>, which is {@code n} itself,
 * or, when the config scrambles out-of-order groups, another number of {@code n}'s group. Everything
 * about the event (what it makes, its ids and references, its event time, its random fields) follows
 * from that id and the seed alone: a random source is seeded from the two for each event. So the same
 * config makes the same events on every run, and a generator that starts at event number {@code n}
 * returns exactly the events that one starting at 0 returns from its {@code n}th on; the stream can be
 * split among several generators by event number ranges.
 *
 * <p>Not thread-safe.
 */
public final class NexmarkGenerator implements Iterator<Event> {

    static final long FIRST_CATEGORY_ID = 10;

    /** Few categories, so that queries filtering on one (q3: category 10) find auctions in little data. */
    static final int CATEGORIES = 5;

    /** Few states, so that queries filtering on some (q3: OR, ID, CA) find persons in little data. */
    static final List<String> STATES = List.of("AZ", "CA", "ID", "OR", "WA", "WY");

    /** Cities of each of {@link #STATES}, in the same order. */
    private static final List<List<String>> CITIES = List.of(
            List.of("Phoenix", "Tucson", "Flagstaff"),
            List.of("Los Angeles", "San Francisco", "Sacramento"),
            List.of("Boise", "Idaho Falls", "Pocatello"),
            List.of("Portland", "Bend", "Eugene"),
            List.of("Seattle", "Spokane", "Tacoma"),
            List.of("Cheyenne", "Casper", "Laramie"));

    private static final List<String> FIRST_NAMES =
            List.of("Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kamala");

    private static final List<String> LAST_NAMES =
            List.of("Adler", "Brandt", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haas", "Ivanova");

    private final NexmarkConfig config;
    private final BidChannels channels;
    private final long end;
    private long next;
    private final Scramble fullGroups;
    private final Scramble lastGroup;

    /** The whole stream: event numbers 0 to {@code config.events()}, exclusive. */
    public NexmarkGenerator(NexmarkConfig config) {
        this(config, 0, config.events());
    }

    /**
     * The stretch of the stream from event number {@code firstEventNumber}, {@code eventCount} events
     * long.
     *
     * @throws IllegalArgumentException if the stretch does not lie within the config's events
     */
    public NexmarkGenerator(NexmarkConfig config, long firstEventNumber, long eventCount) {
        if (firstEventNumber < 0 || eventCount < 0 || eventCount > config.events() - firstEventNumber) {
            throw new IllegalArgumentException("Events " + firstEventNumber + " to " + firstEventNumber + " + "
                    + eventCount + " do not lie within the stream's " + config.events()
                    + " events: the first must be at least 0 and the count at least 0, ending by the stream's end");
        }
        this.config = config;
        this.channels = new BidChannels(config.seed());
        this.next = firstEventNumber;
        this.end = firstEventNumber + eventCount;
        int groupSize = config.outOfOrderGroupSize();
        this.fullGroups = new Scramble(groupSize);
        this.lastGroup = new Scramble((int) (config.events() - lastGroupStart()));
    }

    @Override
    public boolean hasNext() {
        return next < end;
    }

    @Override
    public Event next() {
        if (next >= end) {
            throw new NoSuchElementException("The generator's " + end + " events are all out");
        }
        return event(eventId(next++));
    }

    /**
     * The event id that event number {@code n} makes: its own number if the stream is in order, or
     * else a scrambled one of its group. The groups are aligned on multiples of the group size; the
     * last one holds whatever events the stream has left, so that each id in the stream is made once.
     */
    private long eventId(long n) {
        long start = n - n % config.outOfOrderGroupSize();
        Scramble scramble = start == lastGroupStart() ? lastGroup : fullGroups;
        return start + scramble.apply(n - start);
    }

    private long lastGroupStart() {
        long last = config.events() - 1;
        return last - last % config.outOfOrderGroupSize();
    }

    private Event event(long eventId) {
        SplittableRandom random = randomFor(config.seed(), eventId);
        long time = config.eventTime(eventId);
        if (EventIds.makesPerson(eventId)) {
            return person(eventId, random, time);
        }
        if (EventIds.makesAuction(eventId)) {
            return auction(eventId, random, time);
        }
        return bid(eventId, random, time);
    }

    private Person person(long eventId, SplittableRandom random, long time) {
        long id = EventIds.FIRST_PERSON_ID + EventIds.lastPerson(eventId);
        String name = pick(random, FIRST_NAMES) + " " + pick(random, LAST_NAMES);
        String email = RandomText.letters(random, 3 + random.nextInt(5)) + "@"
                + RandomText.letters(random, 3 + random.nextInt(3)) + ".com";
        String creditCard = creditCard(random);
        int stateIndex = random.nextInt(STATES.size());
        String state = STATES.get(stateIndex);
        String city = pick(random, CITIES.get(stateIndex));
        // Sizes are counted as the reference counts them: 8 for the id, 1 per character.
        int size = 8 + name.length() + email.length() + creditCard.length() + city.length() + state.length();
        String extra = RandomText.padding(random, size, config.avgPersonByteSize());
        return new Person(id, name, email, creditCard, city, state, time, extra);
    }

    private Auction auction(long eventId, SplittableRandom random, long time) {
        long id = EventIds.FIRST_AUCTION_ID + EventIds.lastAuction(eventId);
        long seller = EventIds.seller(config, random, eventId);
        long category = FIRST_CATEGORY_ID + random.nextInt(CATEGORIES);
        long initialBid = price(random);
        long reserve = initialBid + price(random);
        long expires = time + auctionLength(eventId, random, time);
        String itemName = RandomText.words(random, 20);
        String description = RandomText.words(random, 100);
        int size = 8 + itemName.length() + description.length() + 5 * 8;
        String extra = RandomText.padding(random, size, config.avgAuctionByteSize());
        return new Auction(id, itemName, description, initialBid, reserve, time, expires, seller, category, extra);
    }

    private Bid bid(long eventId, SplittableRandom random, long time) {
        long auction = EventIds.auctionOfBid(config, random, eventId);
        long bidder = EventIds.bidder(config, random, eventId);
        long price = price(random);
        BidChannels.Channel channel = channels.pick(random);
        // Channel and url are not counted, as in the reference.
        String extra = RandomText.padding(random, 4 * 8, config.avgBidByteSize());
        return new Bid(auction, bidder, price, channel.name(), channel.url(), time, extra);
    }

    /**
     * How long an auction stays open: uniform up to twice the event time it takes to make
     * {@code numInFlightAuctions} more auctions, so that about that many are open at any time.
     */
    private long auctionLength(long eventId, SplittableRandom random, long time) {
        long eventsForInFlight =
                (long) config.numInFlightAuctions() * NexmarkConfig.TOTAL_PROPORTION / NexmarkConfig.AUCTION_PROPORTION;
        long horizon = config.eventTime(eventId + eventsForInFlight) - time;
        return 1 + random.nextLong(Math.max(2 * horizon, 1));
    }

    /** A price in cents, from $1 to $1,000,000, its logarithm uniform: most prices are small. */
    private static long price(SplittableRandom random) {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    private static String creditCard(SplittableRandom random) {
        StringBuilder card = new StringBuilder(19);
        for (int group = 0; group < 4; group++) {
            if (group > 0) {
                card.append(' ');
            }
            int digits = random.nextInt(10_000);
            for (int unit = 1000; unit > 0; unit /= 10) {
                card.append((char) ('0' + digits / unit % 10));
            }
        }
        return card.toString();
    }

    private static String pick(SplittableRandom random, List<String> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /**
     * The random source of item {@code id} of the stream seeded {@code seed}. The two are hashed first:
     * {@link SplittableRandom}s seeded with nearby values would otherwise start with related values.
     */
    static SplittableRandom randomFor(long seed, long id) {
        long h = seed * 0x9e3779b97f4a7c15L + id;
        h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
        h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return new SplittableRandom(h ^ (h >>> 33));
    }

    /**
     * A fixed permutation of the offsets of a group: offset {@code k} goes to
     * {@code (k * stride + size - 1) mod size}. A stride coprime with the size makes it a permutation;
     * one near 0.618 of the size spreads neighbours far apart; the added {@code size - 1} puts the
     * group's latest event first, so the stream does reach its bound of out-of-orderness.
     */
    private static final class Scramble {

        private final long size;
        private final long stride;

        Scramble(int size) {
            this.size = size;
            long s = Math.max(1, Math.round(size * 0.618));
            while (gcd(s, size) != 1) {
                s++;
            }
            this.stride = s;
        }

        long apply(long offset) {
            return (offset * stride + size - 1) % size;
        }

        private static long gcd(long a, long b) {
            return b == 0 ? a : gcd(b, a % b);
        }
    }
}
