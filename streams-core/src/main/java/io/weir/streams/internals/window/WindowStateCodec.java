package io.weir.streams.internals.window;

import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;

/**
 * The stored form of a {@link WindowState}, format version 1:
 * {@code [version: byte][flags: byte][panes: varint][since last pane: varint]
 * ([max event time: long] when HAS_MAX_EVENT_TIME)([emitted length: varint][emitted bytes] when HAS_EMITTED)
 * [aggregate bytes, absent when NULL_AGGREGATE]}. Four bytes of bookkeeping for most windows, since
 * every window state is written to the changelog at each commit that changes it. The aggregate goes
 * through the user's serde with the store's name as the topic.
 *
 * <p>The version byte comes first so that a later format can be told apart from this one; a value in
 * a format version this code does not know, or with a flag version 1 does not set, fails with an {@link
 * UnknownFormatException} naming the store, never a misread.
 *
 * <p>Public for queries, which read a window's aggregate out of its committed state ({@link
 * #aggregate}); the rest is the window operator's.
 */
public final class WindowStateCodec<A> {

    static final byte VERSION = 1;
    /** The aggregate is null (reduce before its first value, or a discarding delta after a pane). */
    private static final int NULL_AGGREGATE = 8;

    private static final int HAS_MAX_EVENT_TIME = 16;
    private static final int STORED_ONLY = NULL_AGGREGATE | HAS_MAX_EVENT_TIME;
    /** Every flag version 1 sets: another changes how the rest reads, so it is refused. */
    private static final int KNOWN_FLAGS = WindowState.PENDING | WindowState.HAS_EMITTED | STORED_ONLY;
    /** The version, the flags and the two counts. */
    private static final int MIN_LENGTH = 4;

    private final String store;
    private final Serializer<A> serializer;
    private final Deserializer<A> deserializer;

    public WindowStateCodec(String store, Serde<A> serde) {
        this.store = store;
        this.serializer = serde.serializer();
        this.deserializer = serde.deserializer();
    }

    /** Whether the stored state {@code bytes} has changes no pane holds yet, without decoding it. */
    boolean pending(byte[] bytes) {
        checkVersion(bytes);
        return (bytes[1] & WindowState.PENDING) != 0;
    }

    /** The stored form; {@code withMaxEventTime} keeps the largest event time (global windows need it). */
    byte[] encode(WindowState<A> state, boolean withMaxEventTime) {
        byte[] agg = serializer.serialize(store, state.aggregate());
        byte[] emit = state.has(WindowState.HAS_EMITTED) ? serializer.serialize(store, state.emitted()) : null;
        int length = 2
                + Varints.size(state.panes())
                + Varints.size(state.sinceLastPane())
                + (withMaxEventTime ? 8 : 0)
                + (emit == null ? 0 : Varints.size(emit.length) + emit.length)
                + (agg == null ? 0 : agg.length);
        // A serde may write a value as null: then there are no emitted bytes to read back either.
        int flags = (state.flags() & ~STORED_ONLY & ~(emit == null ? WindowState.HAS_EMITTED : 0))
                | (agg == null ? NULL_AGGREGATE : 0)
                | (withMaxEventTime ? HAS_MAX_EVENT_TIME : 0);
        ByteBuffer buffer = ByteBuffer.allocate(length).put(VERSION).put((byte) flags);
        Varints.write(state.panes(), buffer);
        Varints.write(state.sinceLastPane(), buffer);
        if (withMaxEventTime) {
            buffer.putLong(state.maxEventTime());
        }
        if (emit != null) {
            Varints.write(emit.length, buffer);
            buffer.put(emit);
        }
        if (agg != null) {
            buffer.put(agg);
        }
        return buffer.array();
    }

    WindowState<A> decode(byte[] bytes) {
        checkVersion(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
        int flags = buffer.get();
        int panes = Varints.read(buffer);
        int since = Varints.read(buffer);
        long maxEventTime = (flags & HAS_MAX_EVENT_TIME) != 0 ? buffer.getLong() : Long.MIN_VALUE;
        A emitted = null;
        if ((flags & WindowState.HAS_EMITTED) != 0) {
            byte[] emit = new byte[Varints.read(buffer)];
            buffer.get(emit);
            emitted = deserializer.deserialize(store, emit);
        }
        A aggregate = null;
        if ((flags & NULL_AGGREGATE) == 0) {
            byte[] agg = new byte[buffer.remaining()];
            buffer.get(agg);
            aggregate = deserializer.deserialize(store, agg);
        }
        return new WindowState<>(aggregate, emitted, panes, since, maxEventTime, flags & ~STORED_ONLY);
    }

    /** The aggregate in the stored state {@code bytes}, or null when the window has none. */
    public @Nullable A aggregate(byte[] bytes) {
        return decode(bytes).aggregate();
    }

    private void checkVersion(byte[] bytes) {
        UnknownFormatException.check("Store '" + store + "'", "window state", bytes, VERSION, MIN_LENGTH, KNOWN_FLAGS);
    }
}
