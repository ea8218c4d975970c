package io.weir.streams.internals.window;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.ByteBuffer;

/**
 * What a window keeps between records. Stored as
 * {@code [flags: byte][panes: varint][since last pane: varint]
 * ([max event time: long] when HAS_MAX_EVENT_TIME)([emitted length: varint][emitted bytes] when HAS_EMITTED)
 * [aggregate bytes, absent when NULL_AGGREGATE]}: three bytes of bookkeeping for most windows, since
 * every window state is written to the changelog at each commit that changes it.
 *
 * @param aggregate     the window's value: its full aggregate, or under discarding refinement only
 *                      what arrived since its last pane
 * @param emitted       the value of its last pane, kept only under retracting refinement (else null)
 * @param panes         how many panes it has emitted: the next pane's index
 * @param sinceLastPane records added since its last pane (for count triggers)
 * @param maxEventTime  the largest event time added; stored only for global windows, whose panes it stamps
 */
record WindowState<A>(A aggregate, A emitted, int panes, int sinceLastPane, long maxEventTime, int flags) {

    /** Changed since its last pane. */
    static final int PENDING = 2;
    private static final int HAS_EMITTED = 4;
    /** The aggregate is null (reduce before its first value, or a discarding delta after a pane). */
    private static final int NULL_AGGREGATE = 8;
    private static final int HAS_MAX_EVENT_TIME = 16;
    private static final int STORED_ONLY = NULL_AGGREGATE | HAS_MAX_EVENT_TIME;

    static <A> WindowState<A> empty(A initial) {
        return new WindowState<>(initial, null, 0, 0, Long.MIN_VALUE, 0);
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** Whether the encoded state {@code bytes} has {@code flag}, without decoding it. */
    static boolean has(byte[] bytes, int flag) {
        return (bytes[0] & flag) != 0;
    }

    WindowState<A> with(int flag) {
        return new WindowState<>(aggregate, emitted, panes, sinceLastPane, maxEventTime, flags | flag);
    }

    /** {@code newAggregate} after adding a record at {@code eventTime}. */
    WindowState<A> added(A newAggregate, long eventTime) {
        return new WindowState<>(newAggregate, emitted, panes, sinceLastPane + 1, Math.max(maxEventTime, eventTime),
                flags | PENDING);
    }

    /** The start of a merged session's state: this state's aggregate and counts, as a new window with no pane. */
    WindowState<A> rebased() {
        return new WindowState<>(aggregate, null, 0, sinceLastPane, maxEventTime, PENDING);
    }

    /**
     * This session having taken in {@code other}'s records (sessions): the aggregate {@code merged},
     * counts summed, changed; its panes, last emitted value and flags stay.
     */
    WindowState<A> absorbing(WindowState<A> other, A merged) {
        return new WindowState<>(merged, emitted, panes, sinceLastPane + other.sinceLastPane,
                Math.max(maxEventTime, other.maxEventTime), flags | PENDING);
    }

    /**
     * After a pane: {@code next} is the aggregate it keeps (the full value, or the initial value under
     * discarding refinement), {@code emittedValue} what it must remember having emitted (retracting only).
     */
    WindowState<A> afterPane(A next, A emittedValue) {
        int newFlags = (flags & ~(PENDING | HAS_EMITTED)) | (emittedValue != null ? HAS_EMITTED : 0);
        return new WindowState<>(next, emittedValue, panes + 1, 0, maxEventTime, newFlags);
    }

    /** The stored form; {@code withMaxEventTime} keeps the largest event time (global windows need it). */
    byte[] encode(Serializer<A> serializer, String topic, boolean withMaxEventTime) {
        byte[] agg = serializer.serialize(topic, aggregate);
        byte[] emit = has(HAS_EMITTED) ? serializer.serialize(topic, emitted) : null;
        int length = 1 + varintSize(panes) + varintSize(sinceLastPane)
                + (withMaxEventTime ? 8 : 0) + (emit == null ? 0 : varintSize(emit.length) + emit.length)
                + (agg == null ? 0 : agg.length);
        int stored = (flags & ~STORED_ONLY) | (agg == null ? NULL_AGGREGATE : 0) | (withMaxEventTime ? HAS_MAX_EVENT_TIME : 0);
        ByteBuffer buffer = ByteBuffer.allocate(length).put((byte) stored);
        writeVarint(panes, buffer);
        writeVarint(sinceLastPane, buffer);
        if (withMaxEventTime) {
            buffer.putLong(maxEventTime);
        }
        if (emit != null) {
            writeVarint(emit.length, buffer);
            buffer.put(emit);
        }
        if (agg != null) {
            buffer.put(agg);
        }
        return buffer.array();
    }

    static <A> WindowState<A> decode(byte[] bytes, Deserializer<A> deserializer, String topic) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int flags = buffer.get();
        int panes = readVarint(buffer);
        int since = readVarint(buffer);
        long maxEventTime = (flags & HAS_MAX_EVENT_TIME) != 0 ? buffer.getLong() : Long.MIN_VALUE;
        A emitted = null;
        if ((flags & HAS_EMITTED) != 0) {
            byte[] emit = new byte[readVarint(buffer)];
            buffer.get(emit);
            emitted = deserializer.deserialize(topic, emit);
        }
        A aggregate = null;
        if ((flags & NULL_AGGREGATE) == 0) {
            byte[] agg = new byte[buffer.remaining()];
            buffer.get(agg);
            aggregate = deserializer.deserialize(topic, agg);
        }
        return new WindowState<>(aggregate, emitted, panes, since, maxEventTime, flags & ~STORED_ONLY);
    }

    /** Bytes of {@code value} (non-negative) as an unsigned LEB128 varint. */
    private static int varintSize(int value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    private static void writeVarint(int value, ByteBuffer buffer) {
        while ((value & ~0x7F) != 0) {
            buffer.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buffer.put((byte) value);
    }

    private static int readVarint(ByteBuffer buffer) {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = buffer.get();
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }
}
