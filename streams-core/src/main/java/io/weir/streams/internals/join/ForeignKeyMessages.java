package io.weir.streams.internals.join;

import io.weir.streams.internals.state.Varints;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * The messages of a foreign-key join between its two sides' tasks, written to internal topics as bytes:
 * <ul>
 *   <li>a subscription, keyed by the foreign key (so it reaches the task of the right table's row):
 *       {@code [SUBSCRIBE or UNSUBSCRIBE][left key bytes]};</li>
 *   <li>a response, keyed by the left key (so it reaches the task of the left row): {@code [foreign key
 *       length: varint][foreign key bytes][right row: 1 then its stored bytes, or 0 when the right table
 *       has none]}.</li>
 * </ul>
 */
final class ForeignKeyMessages {

    static final byte SUBSCRIBE = 'S';
    static final byte UNSUBSCRIBE = 'U';

    private ForeignKeyMessages() {}

    static byte[] subscription(byte kind, byte[] leftKey) {
        return ByteBuffer.allocate(1 + leftKey.length).put(kind).put(leftKey).array();
    }

    static byte kind(byte[] subscription) {
        return subscription[0];
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
