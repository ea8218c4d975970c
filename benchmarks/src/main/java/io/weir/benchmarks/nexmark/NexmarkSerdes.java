package io.weir.benchmarks.nexmark;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Compact binary serdes of the Nexmark events, Kafka {@link Serde}s, so that Weir and Kafka Streams read
 * the same topics with the same code. A record is a format version byte ({@value #VERSION}), then the
 * event's fields in the order its record declares them: each number as 8 bytes, big-endian; each string
 * as its UTF-8 length (an unsigned varint: 7 bits a byte, low bits first) and its UTF-8 bytes. A null
 * event is a null record and back (a tombstone). Bytes that do not decode to exactly one event of the
 * expected type fail with a {@link SerializationException} that says where and why.
 */
public final class NexmarkSerdes {

    /** The format this class writes, and the only one it reads. */
    public static final byte VERSION = 1;

    private NexmarkSerdes() {}

    public static Serde<Person> person() {
        Serializer<Person> serializer = (topic, person) -> person == null
                ? null
                : new Writer()
                        .number(person.id())
                        .string(person.name())
                        .string(person.emailAddress())
                        .string(person.creditCard())
                        .string(person.city())
                        .string(person.state())
                        .number(person.dateTime())
                        .string(person.extra())
                        .bytes();
        Deserializer<Person> deserializer = (topic, data) -> {
            if (data == null) {
                return null;
            }
            Reader in = new Reader(data, "person");
            Person person = new Person(
                    in.number("id"),
                    in.string("name"),
                    in.string("emailAddress"),
                    in.string("creditCard"),
                    in.string("city"),
                    in.string("state"),
                    in.number("dateTime"),
                    in.string("extra"));
            in.end();
            return person;
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    public static Serde<Auction> auction() {
        Serializer<Auction> serializer = (topic, auction) -> auction == null
                ? null
                : new Writer()
                        .number(auction.id())
                        .string(auction.itemName())
                        .string(auction.description())
                        .number(auction.initialBid())
                        .number(auction.reserve())
                        .number(auction.dateTime())
                        .number(auction.expires())
                        .number(auction.seller())
                        .number(auction.category())
                        .string(auction.extra())
                        .bytes();
        Deserializer<Auction> deserializer = (topic, data) -> {
            if (data == null) {
                return null;
            }
            Reader in = new Reader(data, "auction");
            Auction auction = new Auction(
                    in.number("id"),
                    in.string("itemName"),
                    in.string("description"),
                    in.number("initialBid"),
                    in.number("reserve"),
                    in.number("dateTime"),
                    in.number("expires"),
                    in.number("seller"),
                    in.number("category"),
                    in.string("extra"));
            in.end();
            return auction;
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    public static Serde<Bid> bid() {
        Serializer<Bid> serializer = (topic, bid) -> bid == null
                ? null
                : new Writer()
                        .number(bid.auction())
                        .number(bid.bidder())
                        .number(bid.price())
                        .string(bid.channel())
                        .string(bid.url())
                        .number(bid.dateTime())
                        .string(bid.extra())
                        .bytes();
        Deserializer<Bid> deserializer = (topic, data) -> {
            if (data == null) {
                return null;
            }
            Reader in = new Reader(data, "bid");
            Bid bid = new Bid(
                    in.number("auction"),
                    in.number("bidder"),
                    in.number("price"),
                    in.string("channel"),
                    in.string("url"),
                    in.number("dateTime"),
                    in.string("extra"));
            in.end();
            return bid;
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    /** Appends fields to a buffer that grows as needed, the version byte first. */
    private static final class Writer {

        private byte[] buffer = new byte[128];
        private int length;

        Writer() {
            buffer[length++] = VERSION;
        }

        Writer number(long value) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buffer[length++] = (byte) (value >>> shift);
            }
            return this;
        }

        Writer string(String value) {
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            ensure(5 + utf8.length);
            int rest = utf8.length;
            while (rest >= 0x80) {
                buffer[length++] = (byte) ((rest & 0x7f) | 0x80);
                rest >>>= 7;
            }
            buffer[length++] = (byte) rest;
            System.arraycopy(utf8, 0, buffer, length, utf8.length);
            length += utf8.length;
            return this;
        }

        byte[] bytes() {
            return Arrays.copyOf(buffer, length);
        }

        private void ensure(int more) {
            if (length + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
            }
        }
    }

    /** Reads the fields of one record in order, checking each against the bytes that are left. */
    private static final class Reader {

        private final byte[] data;
        private final String type;
        private int position;

        Reader(byte[] data, String type) {
            this.data = data;
            this.type = type;
            if (data.length == 0) {
                throw failure("there is no format version byte");
            }
            if (data[0] != VERSION) {
                throw failure("format version " + data[0] + ", but only version " + VERSION + " is known");
            }
            position = 1;
        }

        long number(String field) {
            need(field, 8);
            long value = 0;
            for (int i = 0; i < 8; i++) {
                value = (value << 8) | (data[position++] & 0xff);
            }
            return value;
        }

        String string(String field) {
            int start = position;
            long utf8Length = 0;
            for (int shift = 0; ; shift += 7) {
                if (shift > 28) {
                    throw failure("the length of field '" + field + "' at offset " + start
                            + " runs over 5 bytes, more than any length takes");
                }
                need(field, 1);
                byte b = data[position++];
                utf8Length |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    break;
                }
            }
            if (utf8Length > data.length - position) {
                throw failure("field '" + field + "' at offset " + start + " says it is " + bytes(utf8Length) + " long"
                        + ", but the record has " + bytes(data.length - position) + " left");
            }
            String value = new String(data, position, (int) utf8Length, StandardCharsets.UTF_8);
            position += (int) utf8Length;
            return value;
        }

        void end() {
            if (position != data.length) {
                throw failure("the last field ends at offset " + position + ", before the record does");
            }
        }

        private void need(String field, int count) {
            if (data.length - position < count) {
                throw failure("field '" + field + "' at offset " + position + " needs " + bytes(count)
                        + ", but the record has " + bytes(data.length - position) + " left");
            }
        }

        private static String bytes(long count) {
            return count == 1 ? "1 byte" : count + " bytes";
        }

        private SerializationException failure(String why) {
            return new SerializationException(
                    "Cannot decode a Nexmark " + type + " from " + bytes(data.length) + ": " + why);
        }
    }
}
