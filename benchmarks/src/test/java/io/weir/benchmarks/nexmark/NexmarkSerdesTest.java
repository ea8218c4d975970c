package io.weir.benchmarks.nexmark;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NexmarkSerdesTest {

    private static final Person PERSON = new Person(
            1001, "Ada Adler", "ada@weir.com", "0123 4567 8901 2345", "Boise", "ID", 1_704_067_200_123L, "pad");
    private static final Auction AUCTION = new Auction(
            1002, "lamp", "an old brass lamp", 100, 2500, 1_704_067_200_000L, 1_704_067_260_000L, 1001, 10, "");
    // Characters of two, three and four UTF-8 bytes, and a string longer than one length byte holds.
    private static final Bid BID = new Bid(
            1002,
            1001,
            4_200,
            "Bäidu €",
            "https://www.nexmark.com/a/b/c/item.htm?query=1&channel_id=7",
            1_704_067_201_000L,
            "😀" + "x".repeat(300));

    @Test
    void everyEventTypeRoundTrips() {
        assertEquals(PERSON, roundTrip(NexmarkSerdes.person(), PERSON));
        assertEquals(AUCTION, roundTrip(NexmarkSerdes.auction(), AUCTION));
        assertEquals(BID, roundTrip(NexmarkSerdes.bid(), BID));
        NexmarkGenerator generator =
                new NexmarkGenerator(NexmarkConfig.defaults().withEvents(500));
        while (generator.hasNext()) {
            Event event = generator.next();
            if (event instanceof Person p) {
                assertEquals(p, roundTrip(NexmarkSerdes.person(), p));
            } else if (event instanceof Auction a) {
                assertEquals(a, roundTrip(NexmarkSerdes.auction(), a));
            } else {
                assertEquals(event, roundTrip(NexmarkSerdes.bid(), (Bid) event));
            }
        }
    }

    @Test
    void aRecordIsTheVersionByteThenTheFieldsInOrder() {
        byte[] bytes = NexmarkSerdes.bid().serializer().serialize("bids", new Bid(1, 2, 3, "c", "", 4, "é"));
        byte[] expected = {
            1, // version
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            1, // auction
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            2, // bidder
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            3, // price
            1,
            'c', // channel
            0, // url
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            4, // dateTime
            2,
            (byte) 0xc3,
            (byte) 0xa9 // extra
        };
        assertArrayEquals(expected, bytes);
    }

    @Test
    void nullIsATombstoneBothWays() {
        assertNull(NexmarkSerdes.person().serializer().serialize("persons", null));
        assertNull(NexmarkSerdes.auction().deserializer().deserialize("auctions", null));
    }

    @Test
    void everyTruncationOfARecordIsRefused() {
        byte[] bytes = NexmarkSerdes.bid().serializer().serialize("bids", BID);
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            SerializationException e = assertThrows(
                    SerializationException.class,
                    () -> NexmarkSerdes.bid().deserializer().deserialize("bids", truncated),
                    length + " bytes");
            assertTrue(
                    e.getMessage()
                            .startsWith("Cannot decode a Nexmark bid from " + length
                                    + (length == 1 ? " byte: " : " bytes: ")),
                    e.getMessage());
        }
    }

    @Test
    void refusalsSayWhereAndWhy() {
        byte[] auction = NexmarkSerdes.auction().serializer().serialize("auctions", AUCTION);
        assertEquals(
                "Cannot decode a Nexmark auction from 0 bytes: there is no format version byte",
                decodeFailure(new byte[0]));
        assertEquals(
                "Cannot decode a Nexmark auction from 1 byte: field 'id' at offset 1 needs 8 bytes, but the record"
                        + " has 0 bytes left",
                decodeFailure(Arrays.copyOf(auction, 1)));
        assertEquals(
                "Cannot decode a Nexmark auction from 9 bytes: field 'itemName' at offset 9 needs 1 byte, but the"
                        + " record has 0 bytes left",
                decodeFailure(Arrays.copyOf(auction, 9)));
        // The item name's length byte says 4 ("lamp"), and the record ends right after it.
        assertEquals(
                "Cannot decode a Nexmark auction from 10 bytes: field 'itemName' at offset 9 says it is 4 bytes long,"
                        + " but the record has 0 bytes left",
                decodeFailure(Arrays.copyOf(auction, 10)));

        byte[] future = auction.clone();
        future[0] = 2;
        assertEquals(
                "Cannot decode a Nexmark auction from " + auction.length
                        + " bytes: format version 2, but only version 1 is known",
                decodeFailure(future));

        byte[] longer = Arrays.copyOf(auction, auction.length + 3);
        assertEquals(
                "Cannot decode a Nexmark auction from " + longer.length + " bytes: the last field ends at offset "
                        + auction.length + ", before the record does",
                decodeFailure(longer));

        byte[] endless = {1, 0, 0, 0, 0, 0, 0, 0, 1, -1, -1, -1, -1, -1, -1};
        assertEquals(
                "Cannot decode a Nexmark auction from 15 bytes: the length of field 'itemName' at offset 9 runs over"
                        + " 5 bytes, more than any length takes",
                decodeFailure(endless));
    }

    private static String decodeFailure(byte[] bytes) {
        return assertThrows(
                        SerializationException.class,
                        () -> NexmarkSerdes.auction().deserializer().deserialize("auctions", bytes))
                .getMessage();
    }

    private static <T> T roundTrip(Serde<T> serde, T value) {
        return serde.deserializer().deserialize("topic", serde.serializer().serialize("topic", value));
    }
}
