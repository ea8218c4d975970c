package io.weir.streams.internals.join;

import io.weir.streams.internals.testing.FormatRefusals;
import io.weir.streams.internals.testing.GoldenBytes;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A foreign-key join's messages between its two sides' tasks (subscriptions and responses, on its internal
 * topics) and the right side's subscription store keys, byte for byte: what one release writes, the next
 * reads during a rolling upgrade.
 */
class ForeignKeyMessagesGoldenTest {

    private static final String TOPIC = "app-fk-join-subscribe";
    private static final byte[] LEFT = utf8("order-1");
    private static final byte[] FOREIGN = utf8("customer-9");
    /** A right table's stored row: the bytes travel as they are. */
    private static final byte[] ROW = {1, 0, 0, 0, 0, 0, 0, 0, 0, 5, 'x'};

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void subscriptionsAreWrittenAsTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = GoldenBytes.of("foreign-key-subscription")
                .add(
                        "subscribe \"order-1\" (keyed by the foreign key)",
                        ForeignKeyMessages.subscription(ForeignKeyMessages.SUBSCRIBE, LEFT))
                .add("unsubscribe \"order-1\"", ForeignKeyMessages.subscription(ForeignKeyMessages.UNSUBSCRIBE, LEFT))
                .add(
                        "subscribe an empty left key",
                        ForeignKeyMessages.subscription(ForeignKeyMessages.SUBSCRIBE, new byte[0]))
                .verify();
        assertEquals(
                ForeignKeyMessages.SUBSCRIBE,
                ForeignKeyMessages.kind(stored.get(0).bytes(), TOPIC));
        assertArrayEquals(LEFT, ForeignKeyMessages.leftKey(stored.get(0).bytes()));
        assertEquals(
                ForeignKeyMessages.UNSUBSCRIBE,
                ForeignKeyMessages.kind(stored.get(1).bytes(), TOPIC));
        assertArrayEquals(LEFT, ForeignKeyMessages.leftKey(stored.get(1).bytes()));
        assertArrayEquals(new byte[0], ForeignKeyMessages.leftKey(stored.get(2).bytes()));
    }

    @Test
    void responsesAreWrittenAsTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = GoldenBytes.of("foreign-key-response")
                .add(
                        "the row of \"customer-9\" (an 11-byte stored table row), keyed by the left key",
                        ForeignKeyMessages.response(FOREIGN, ROW))
                .add("\"customer-9\" has no row", ForeignKeyMessages.response(FOREIGN, null))
                .add(
                        "a foreign key of 200 bytes (two-byte varint length), no row",
                        ForeignKeyMessages.response(new byte[200], null))
                .verify();
        ForeignKeyMessages.Response row =
                ForeignKeyMessages.response(stored.get(0).bytes());
        assertArrayEquals(FOREIGN, row.foreignKey());
        assertArrayEquals(ROW, row.rightRow());
        ForeignKeyMessages.Response none =
                ForeignKeyMessages.response(stored.get(1).bytes());
        assertArrayEquals(FOREIGN, none.foreignKey());
        assertNull(none.rightRow());
        assertArrayEquals(
                new byte[200],
                ForeignKeyMessages.response(stored.get(2).bytes()).foreignKey());
    }

    @Test
    void subscriptionStoreKeysAreTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = GoldenBytes.of("foreign-key-subscription-store")
                .add(
                        "\"order-1\" subscribes to \"customer-9\" (an empty value)",
                        ForeignKeyMessages.subscriptionEntry(FOREIGN, LEFT),
                        new byte[0])
                .add(
                        "an empty left key subscribes to an empty foreign key",
                        ForeignKeyMessages.subscriptionEntry(new byte[0], new byte[0]),
                        new byte[0])
                .verify();
        byte[] subscribers = ForeignKeyMessages.subscribers(FOREIGN);
        assertArrayEquals(LEFT, ForeignKeyMessages.leftKeyOf(stored.get(0).field(0), subscribers));
        assertArrayEquals(
                new byte[0],
                ForeignKeyMessages.leftKeyOf(stored.get(1).field(0), ForeignKeyMessages.subscribers(new byte[0])));
    }

    @Test
    void aSubscriptionOfAKindThisVersionDoesNotKnowIsRefused() {
        byte[] other =
                FormatRefusals.withVersion(ForeignKeyMessages.subscription(ForeignKeyMessages.SUBSCRIBE, LEFT), 'X');
        FormatRefusals.assertRefused(
                () -> ForeignKeyMessages.kind(other, TOPIC),
                "Foreign-key join topic '" + TOPIC + "'",
                "subscription of kind 88",
                "'S'",
                "'U'");
        FormatRefusals.assertRefused(() -> ForeignKeyMessages.kind(new byte[0], TOPIC), "subscription of kind 0");
    }
}
