package io.weir.streams.internals.join;

import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The messages of a foreign-key join between its two sides' tasks, written to internal topics as bytes:
 * <ul>
 *   <li>a subscription, keyed by the foreign key (so it reaches the task of the right table's row):
 *       {@code [SUBSCRIBE or UNSUBSCRIBE][left key bytes]};</li>
 *   <li>a response, keyed by the left key (so it reaches the task of the left row): {@code [foreign key
 *       length: varint][foreign key bytes][right row: 1 then its stored bytes, or 0 when the right table
 *       has none]}.</li>
 * </ul>
 * The right side keeps each subscription in its subscription store, under {@code [foreign key length:
 * int][foreign key bytes][left key bytes]} ({@link #subscriptionEntry}), so a right row's subscribers are
 * one range. A subscription's first byte says what it is: a kind this code does not know fails with an
 * {@link UnknownFormatException} rather than being taken for a subscription.
 */
final class ForeignKeyMessages {

    static final byte SUBSCRIBE = 'S';
    static final byte UNSUBSCRIBE = 'U';

    private ForeignKeyMessages() {}

    static byte[] subscription(byte kind, byte[] leftKey) {
        return ByteBuffer.allocate(1 + leftKey.length).put(kind).put(leftKey).array();
    }

    /**
     * {@link #SUBSCRIBE} or {@link #UNSUBSCRIBE}.
     *
     * @param topic the topic the subscription was read from, for the error
     * @throws UnknownFormatException if it is neither
     */
    static byte kind(byte[] subscription, String topic) {
        byte kind = subscription.length == 0 ? 0 : subscription[0];
        if (kind != SUBSCRIBE && kind != UNSUBSCRIBE) {
            throw UnknownFormatException.unknownKind(
                    "Foreign-key join topic '" + topic + "'",
                    "subscription",
                    kind,
                    "'S' (" + SUBSCRIBE + ", subscribe) and 'U' (" + UNSUBSCRIBE + ", unsubscribe)");
        }
        return kind;
    }

    static byte[] leftKey(byte[] subscription) {
        byte[] key = new byte[subscription.length - 1];
        System.arraycopy(subscription, 1, key, 0, key.length);
        return key;
    }

    /** A response: the right table's row (null: none) of {@code foreignKey}. */
    static byte[] response(byte[] foreignKey, byte @Nullable [] rightRow) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Varints.write(foreignKey.length, out);
        out.writeBytes(foreignKey);
        out.write(rightRow == null ? 0 : 1);
        if (rightRow != null) {
            out.writeBytes(rightRow);
        }
        return out.toByteArray();
    }

    /** The subscription store's key of {@code leftKey}'s subscription to {@code foreignKey}. */
    static byte[] subscriptionEntry(byte[] foreignKey, byte[] leftKey) {
        return Bytes.concat(subscribers(foreignKey), leftKey);
    }

    /** What the subscription store's keys of every subscription to {@code foreignKey} start with. */
    static byte[] subscribers(byte[] foreignKey) {
        return KeyTimeKeys.prefix(foreignKey);
    }

    /** The left key of a subscription store key that starts with {@code subscribers}. */
    static byte[] leftKeyOf(byte[] entry, byte[] subscribers) {
        return Arrays.copyOfRange(entry, subscribers.length, entry.length);
    }

    /** A decoded response. */
    record Response(byte[] foreignKey, byte @Nullable [] rightRow) {}

    static Response response(byte[] message) {
        ByteBuffer in = ByteBuffer.wrap(message);
        byte[] foreignKey = new byte[Varints.read(in)];
        in.get(foreignKey);
        byte[] row = null;
        if (in.get() == 1) {
            row = new byte[in.remaining()];
            in.get(row);
        }
        return new Response(foreignKey, row);
    }
}
