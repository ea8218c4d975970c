package io.weir.benchmarks.nexmark;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per rule the generator follows (docs/benchmarks/nexmark.md, "The generator"). */
class NexmarkGeneratorTest {

    private static final NexmarkConfig TEN_THOUSAND = NexmarkConfig.defaults().withEvents(10_000);

    @Test
    void theSameSeedMakesTheSameEvents() {
        NexmarkConfig config = TEN_THOUSAND.withSeed(7);
        assertEquals(events(config), events(config));
    }

    @Test
    void aDifferentSeedMakesDifferentEvents() {
        List<Event> seven = events(TEN_THOUSAND.withSeed(7));
        List<Event> eight = events(TEN_THOUSAND.withSeed(8));
        long same = 0;
        for (int i = 0; i < seven.size(); i++) {
            if (seven.get(i).equals(eight.get(i))) {
                same++;
            }
        }
        assertEquals(0, same, "events equal under seeds 7 and 8");
    }

    @Test
    void everyFiftyEventsAreOnePersonThenThreeAuctionsThenFortySixBids() {
        List<Event> events = events(TEN_THOUSAND);
        for (int run = 0; run < events.size(); run += NexmarkConfig.TOTAL_PROPORTION) {
            String kinds = events.subList(run, run + NexmarkConfig.TOTAL_PROPORTION).stream()
                    .map(e -> e.getClass().getSimpleName().substring(0, 1))
                    .collect(Collectors.joining());
            assertEquals("PAAA" + "B".repeat(46), kinds, "events " + run + " on");
        }
    }

    @Test
    void eventTimeAdvancesByTheRateFromTheBaseTime() {
        NexmarkConfig config = TEN_THOUSAND.withFirstEventRate(400).withBaseTime(1_000_000);
        List<Event> events = events(config);
        for (int n = 0; n < events.size(); n++) {
            assertEquals(1_000_000 + n * 1000L / 400, events.get(n).dateTime(), "event " + n);
        }
        assertEquals(Duration.ZERO, config.maxOutOfOrderness(), "an in-order stream");
    }

    @Test
    void eventTimeRunsBackByAtMostMaxOutOfOrderness() {
        // Groups of 500 events at 1,000 a second span 499 ms of event time.
        NexmarkConfig config = TEN_THOUSAND.withFirstEventRate(1000).withOutOfOrderGroupSize(500);
        assertEquals(Duration.ofMillis(499), config.maxOutOfOrderness());
        long latest = Long.MIN_VALUE;
        long furthestBack = 0;
        for (Event event : events(config)) {
            latest = Math.max(latest, event.dateTime());
            furthestBack = Math.max(furthestBack, latest - event.dateTime());
        }
        assertEquals(config.maxOutOfOrderness().toMillis(), furthestBack, "the bound is reached, never passed");
        // Partial milliseconds round up: 999 events at 10,000 a second span 99.9 ms.
        assertEquals(
                Duration.ofMillis(100),
                NexmarkConfig.defaults().withOutOfOrderGroupSize(1000).maxOutOfOrderness());
    }

    @Test
    void anOutOfOrderStreamHoldsTheSameEventsAsTheInOrderOne() {
        // 10,000 is no multiple of 333: the last group is a short one.
        NexmarkConfig inOrder = TEN_THOUSAND;
        NexmarkConfig scrambled = inOrder.withOutOfOrderGroupSize(333);
        List<Event> scrambledEvents = events(scrambled);
        assertNotEquals(events(inOrder), scrambledEvents);
        assertEquals(new HashSet<>(events(inOrder)), new HashSet<>(scrambledEvents));
        assertEquals(inOrder.events(), new HashSet<>(scrambledEvents).size(), "every event once");
    }

    @Test
    void personsAndAuctionsAreNumberedFromOneThousandInTheirOrder() {
        long person = EventIds.FIRST_PERSON_ID;
        long auction = EventIds.FIRST_AUCTION_ID;
        for (Event event : events(TEN_THOUSAND)) {
            if (event instanceof Person p) {
                assertEquals(person++, p.id());
            } else if (event instanceof Auction a) {
                assertEquals(auction++, a.id());
            }
        }
    }

    @Test
    void referencesNameAPersonOrAuctionMadeAlreadyOrAtMostTheIdLeadAhead() {
        long lastPerson = -1;
        long lastAuction = -1;
        int bids = 0;
        int bidsOnWhatExists = 0;
        for (Event event : events(TEN_THOUSAND)) {
            if (event instanceof Person p) {
                lastPerson = p.id();
            } else if (event instanceof Auction a) {
                lastAuction = a.id();
                assertReference(a.seller(), EventIds.FIRST_PERSON_ID, lastPerson, "seller of " + a);
            } else {
                Bid b = (Bid) event;
                assertReference(b.bidder(), EventIds.FIRST_PERSON_ID, lastPerson, "bidder of " + b);
                assertReference(b.auction(), EventIds.FIRST_AUCTION_ID, lastAuction, "auction of " + b);
                bids++;
                if (b.bidder() <= lastPerson && b.auction() <= lastAuction) {
                    bidsOnWhatExists++;
                }
            }
        }
        // Only a random (not hot) reference can reach ahead, and then only a few ids of about a hundred.
        assertTrue(bidsOnWhatExists > 0.9 * bids, bidsOnWhatExists + " of " + bids + " bids name what exists");
    }

    private static void assertReference(long id, long first, long last, String what) {
        assertTrue(id >= first && id <= last + EventIds.ID_LEAD, what + " names " + id + "; the last made is " + last);
    }

    @Test
    void mostAuctionsAndBidsGoToHotSellersBiddersAndAuctions() {
        // Hot ratios 2, 4 and 4: half of all bids are on a hot auction, three quarters of auctions by a hot
        // seller and of bids by a hot bidder; a hot entity's id is a multiple of 100 from the first (a hot
        // bidder's, one more).
        List<Event> events = events(TEN_THOUSAND);
        List<Auction> auctions = only(events, Auction.class);
        List<Bid> bids = only(events, Bid.class);
        assertShare(
                0.75,
                auctions.stream()
                        .filter(a -> isHot(a.seller(), EventIds.FIRST_PERSON_ID))
                        .count(),
                auctions);
        assertShare(
                0.5,
                bids.stream()
                        .filter(b -> isHot(b.auction(), EventIds.FIRST_AUCTION_ID))
                        .count(),
                bids);
        assertShare(
                0.75,
                bids.stream()
                        .filter(b -> isHot(b.bidder() - 1, EventIds.FIRST_PERSON_ID))
                        .count(),
                bids);
    }

    private static boolean isHot(long id, long first) {
        return (id - first) % EventIds.HOT_BLOCK == 0;
    }

    private static void assertShare(double expected, long count, List<?> of) {
        double share = (double) count / of.size();
        // The random picks land on a hot id now and then too: allow a few points above.
        assertTrue(share > expected - 0.03 && share < expected + 0.06, "share " + share + ", expected " + expected);
    }

    @Test
    void aGeneratorStartedAtEventNMakesTheStreamFromEventNOn() {
        // Out of order, with groups that the starts below cut through.
        NexmarkConfig config = TEN_THOUSAND.withEvents(3000).withOutOfOrderGroupSize(7);
        List<Event> whole = events(config);
        assertEquals(whole.subList(1234, 3000), drain(new NexmarkGenerator(config, 1234, 3000 - 1234)));

        List<Event> split = new ArrayList<>();
        split.addAll(drain(new NexmarkGenerator(config, 0, 1000)));
        split.addAll(drain(new NexmarkGenerator(config, 1000, 1001)));
        split.addAll(drain(new NexmarkGenerator(config, 2001, 999)));
        assertEquals(whole, split);
    }

    @Test
    void aGeneratorRefusesAStretchOutsideTheStreamAndEndsWhereItSaid() {
        NexmarkConfig config = TEN_THOUSAND.withEvents(100);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new NexmarkGenerator(config, 90, 11));
        assertEquals(
                "Events 90 to 90 + 11 do not lie within the stream's 100 events: the first must be at least 0"
                        + " and the count at least 0, ending by the stream's end",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NexmarkGenerator(config, -1, 1));
        NexmarkGenerator last = new NexmarkGenerator(config, 99, 1);
        last.next();
        assertFalse(last.hasNext());
        assertThrows(NoSuchElementException.class, last::next);
    }

    @Test
    void auctionsCloseAfterTheyOpenWithAReserveAboveTheFirstBid() {
        for (Auction a : only(events(TEN_THOUSAND), Auction.class)) {
            assertTrue(a.expires() > a.dateTime(), a.toString());
            assertTrue(a.initialBid() >= 100 && a.reserve() > a.initialBid(), a.toString());
            assertTrue(a.category() >= 10 && a.category() < 15, a.toString());
        }
    }

    @Test
    void extraFieldsPadEventsToTheAverageSizes() {
        List<Event> events = events(TEN_THOUSAND);
        // Counted as the reference counts: 8 bytes for some numbers, 1 per character of the text.
        double person = only(events, Person.class).stream()
                .mapToInt(p -> 8
                        + p.name().length()
                        + p.emailAddress().length()
                        + p.creditCard().length()
                        + p.city().length()
                        + p.state().length()
                        + p.extra().length())
                .average()
                .orElseThrow();
        double auction = only(events, Auction.class).stream()
                .mapToInt(a -> 48
                        + a.itemName().length()
                        + a.description().length()
                        + a.extra().length())
                .average()
                .orElseThrow();
        double bid = only(events, Bid.class).stream()
                .mapToInt(b -> 32 + b.extra().length())
                .average()
                .orElseThrow();
        assertEquals(200, person, 4);
        assertEquals(500, auction, 4);
        assertEquals(100, bid, 1);
    }

    @Test
    void q3FindsPersonsInOregonIdahoOrCaliforniaSellingInCategoryTen() {
        List<Event> events = events(TEN_THOUSAND);
        Set<Long> sellers = only(events, Person.class).stream()
                .filter(p -> Set.of("OR", "ID", "CA").contains(p.state()))
                .map(Person::id)
                .collect(Collectors.toSet());
        long matches = only(events, Auction.class).stream()
                .filter(a -> a.category() == 10 && sellers.contains(a.seller()))
                .count();
        assertTrue(matches >= 5, matches + " matches");
        assertEquals(
                Set.copyOf(NexmarkGenerator.STATES),
                only(events, Person.class).stream().map(Person::state).collect(Collectors.toSet()));
    }

    @Test
    void q2FindsBidsOnAuctionsWhoseIdIsAMultipleOf123() {
        assertTrue(only(events(TEN_THOUSAND), Bid.class).stream().anyMatch(b -> b.auction() % 123 == 0));
    }

    @Test
    void q21FindsHotChannelsByNameAndTheOthersByTheirUrlsChannelId() {
        Pattern channelId = Pattern.compile("(&|^)channel_id=([^&]*)");
        Set<String> hot = Set.of("apple", "google", "facebook", "baidu");
        int byName = 0;
        int byUrl = 0;
        int neither = 0;
        for (Bid bid : only(events(TEN_THOUSAND), Bid.class)) {
            Matcher m = channelId.matcher(bid.url());
            if (hot.contains(bid.channel().toLowerCase(Locale.ROOT))) {
                assertFalse(m.find(), "a hot channel's url has no channel_id: " + bid.url());
                byName++;
            } else if (m.find()) {
                assertFalse(m.group(2).isEmpty(), bid.url());
                byUrl++;
            } else {
                neither++;
            }
        }
        assertTrue(byName > 0 && byUrl > 0 && neither > 0, byName + " by name, " + byUrl + " by url, " + neither);
        // Half the bids come through a hot channel; nine numbered channels in ten have an id.
        assertEquals(0.5, (double) byName / (byName + byUrl + neither), 0.03);
    }

    @Test
    void q22SplitsThreeDirectoriesOutOfEveryUrl() {
        for (Bid bid : only(events(TEN_THOUSAND), Bid.class)) {
            // As SQL's SPLIT_INDEX does, keeping empty parts.
            String[] parts = bid.url().split("/", -1);
            assertEquals("https:", parts[0], bid.url());
            assertEquals("www.nexmark.com", parts[2], bid.url());
            for (int dir = 3; dir <= 5; dir++) {
                assertEquals(5, parts[dir].length(), bid.url());
            }
            assertTrue(parts[6].startsWith("item.htm?query=1"), bid.url());
        }
    }

    private static List<Event> events(NexmarkConfig config) {
        return drain(new NexmarkGenerator(config));
    }

    private static List<Event> drain(NexmarkGenerator generator) {
        List<Event> events = new ArrayList<>();
        generator.forEachRemaining(events::add);
        return events;
    }

    private static <T extends Event> List<T> only(List<Event> events, Class<T> kind) {
        return events.stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
