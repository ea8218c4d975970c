package io.weir.streams.internals.table;

import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The stored form of a {@link TableRow}, format version 1:
 * {@code [version: byte][flags: byte][timestamp: long]([updated at: long] when HAS_UPDATED_AT)([rows: varint]
 * when HAS_ROWS)[value bytes, absent when NULL_VALUE]}.
 * The value goes through the user's serde with the store's name as the topic. A version this code does
 * not know, or a flag version 1 does not set, fails with an {@link UnknownFormatException} (naming the
 * store where the reader knows it), never a misread: the static readers of a row's time and kind check
 * as {@link #decode} does.
 */
public final class TableRowCodec<V> {

    static final byte VERSION = 1;
    private static final int HAS_ROWS = 1;
    private static final int NULL_VALUE = 2;
    private static final int HAS_UPDATED_AT = 4;
    private static final int KNOWN_FLAGS = HAS_ROWS | NULL_VALUE | HAS_UPDATED_AT;
    /** The version, the flags and the timestamp. */
    private static final int MIN_LENGTH = 10;

    private static final String FORMAT = "table row";

    private final String store;
    private final Serializer<V> serializer;
    private final Deserializer<V> deserializer;

    public TableRowCodec(String store, Serde<V> serde) {
        this.store = store;
        this.serializer = serde.serializer();
        this.deserializer = serde.deserializer();
    }

    public byte[] encode(TableRow<V> row) {
        byte[] value = row.value() == null ? null : serializer.serialize(store, row.value());
        return encode(value, row.timestamp(), row.rows(), row.updatedAt());
    }

    /**
     * The stored form of an already serialized value (a source table's record as read); {@code
     * updatedAt} is kept unless it is {@code Long.MIN_VALUE}.
     */
    public static byte[] encode(byte @Nullable [] value, long timestamp, int rows, long updatedAt) {
        boolean keepsUpdate = updatedAt != Long.MIN_VALUE;
        int length =
                10 + (keepsUpdate ? 8 : 0) + (rows >= 0 ? Varints.size(rows) : 0) + (value == null ? 0 : value.length);
        ByteBuffer buffer = ByteBuffer.allocate(length)
                .put(VERSION)
                .put((byte) ((rows >= 0 ? HAS_ROWS : 0)
                        | (value == null ? NULL_VALUE : 0)
                        | (keepsUpdate ? HAS_UPDATED_AT : 0)))
                .putLong(timestamp);
        if (keepsUpdate) {
            buffer.putLong(updatedAt);
        }
        if (rows >= 0) {
            Varints.write(rows, buffer);
        }
        if (value != null) {
            buffer.put(value);
        }
        return buffer.array();
    }

    /**
     * Whether two stored rows (null: absent) hold the same value, whatever their event times: a change
     * that leaves the value as it was is no change downstream.
     */
    public boolean sameValue(byte @Nullable [] a, byte @Nullable [] b) {
        if (a == null || b == null) {
            return a == b;
        }
        int fromA = valueOffset(a);
        int fromB = valueOffset(b);
        return (a[1] & NULL_VALUE) == (b[1] & NULL_VALUE) && Arrays.equals(a, fromA, a.length, b, fromB, b.length);
    }

    private int valueOffset(byte[] bytes) {
        check("Store '" + store + "'", bytes);
        int offset = 10 + ((bytes[1] & HAS_UPDATED_AT) != 0 ? 8 : 0);
        if ((bytes[1] & HAS_ROWS) == 0) {
            return offset;
        }
        while ((bytes[offset] & 0x80) != 0) {
            offset++;
        }
        return offset + 1;
    }

    /**
     * Whether a stored row has no value: a versioned table's delete. Only for {@link TableRowCodec} rows:
     * a join's rows ({@link RowFormat}) start with another format byte and are never deletes.
     */
    static boolean isDeleteRow(byte[] stored) {
        return stored[0] == VERSION && isDelete(stored);
    }

    /** Whether a stored row has no value: a versioned table's delete. */
    static boolean isDelete(byte[] stored) {
        check(stored);
        return (stored[1] & NULL_VALUE) != 0;
    }

    /** The event time of a stored row, without decoding its value. */
    static long timestamp(byte[] stored) {
        check(stored);
        return ByteBuffer.wrap(stored, 2, 8).getLong();
    }

    /**
     * The time of a row that a change at {@code time} writes over {@code replaced} (null: none): a row's
     * time is the largest of the changes that made it, never earlier than the row it replaces.
     */
    static long timeReplacing(long time, byte @Nullable [] replaced) {
        return replaced == null ? time : Math.max(time, timestamp(replaced));
    }

    /** The processing time of a stored row's last change, or {@code Long.MIN_VALUE} when it was not kept. */
    static long updatedAt(byte[] stored) {
        check(stored);
        return (stored[1] & HAS_UPDATED_AT) != 0
                ? ByteBuffer.wrap(stored, 10, 8).getLong()
                : Long.MIN_VALUE;
    }

    public TableRow<V> decode(byte[] bytes) {
        check("Store '" + store + "'", bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 2, bytes.length - 2);
        int flags = bytes[1];
        long timestamp = buffer.getLong();
        long updatedAt = (flags & HAS_UPDATED_AT) != 0 ? buffer.getLong() : Long.MIN_VALUE;
        int rows = (flags & HAS_ROWS) != 0 ? Varints.read(buffer) : -1;
        V value = null;
        if ((flags & NULL_VALUE) == 0) {
            byte[] valueBytes = new byte[buffer.remaining()];
            buffer.get(valueBytes);
            value = deserializer.deserialize(store, valueBytes);
        }
        return new TableRow<>(value, timestamp, rows, updatedAt);
    }

    /** Refuses a row this version does not read, read where the store is not known. */
    private static void check(byte[] bytes) {
        check("A table store", bytes);
    }

    private static void check(String where, byte[] bytes) {
        UnknownFormatException.check(where, FORMAT, bytes, VERSION, MIN_LENGTH, KNOWN_FLAGS);
    }
}
