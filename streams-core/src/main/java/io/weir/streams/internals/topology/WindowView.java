package io.weir.streams.internals.topology;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.window.WindowStateCodec;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.time.Window;
import org.apache.kafka.common.serialization.Serde;

/**
 * How the bytes of a queryable store in the window-store layout ({@link WindowKeys}: {@code [end][start][key
 * bytes]}) read as the user's keys, windows and values: keys through the key serde, with the store's
 * name as the topic; values out of the window's state ({@link WindowStateCodec}), or through the value
 * serde for a keyed processor's window store.
 *
 * <p>{@code minSpan} and {@code maxSpan} bound the stored {@code end - start} of every entry ({@link
 * #UNBOUNDED}: no bound), so a query by window start knows which ends to scan: windows of a fixed size
 * have one span, sessions any from the gap to their maximum length.
 *
 * @param kind what the entries are, and so which view queries get
 */
public record WindowView<K, V>(
        String store, Serde<K> keySerde, ValueReader<V> values, long minSpan, long maxSpan, Kind kind)
        implements StoreView {

    /** A span without bound: a global window's, or sessions' without a maximum length. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    /** What a window store's entries are. */
    public enum Kind {
        /** Windows of a windowed aggregation other than sessions: read as a window store. */
        WINDOWS,
        /** Sessions of a session-window aggregation: read as a session store. */
        SESSIONS,
        /**
         * A keyed processor's entries by time {@code t}, stored with {@code t} as start and end: read as a
         * window store whose windows are {@code [t, t + 1)}.
         */
        TIMES
    }

    /** A windowed aggregation's store whose windows all span {@code span} ms ({@link #UNBOUNDED}: global). */
    public static <K, A> WindowView<K, A> windows(String store, Serde<K> keySerde, Serde<A> aggSerde, long span) {
        return new WindowView<>(
                store, keySerde, new WindowStateCodec<>(store, aggSerde)::aggregate, span, span, Kind.WINDOWS);
    }

    /** A session-window aggregation's store: sessions span from {@code gap} to {@code maxLength} ({@link #UNBOUNDED}: none). */
    public static <K, A> WindowView<K, A> sessions(
            String store, Serde<K> keySerde, Serde<A> aggSerde, long gap, long maxLength) {
        return new WindowView<>(
                store, keySerde, new WindowStateCodec<>(store, aggSerde)::aggregate, gap, maxLength, Kind.SESSIONS);
    }

    /** A keyed processor's window store: values as the value serde wrote them, one entry per key and time. */
    public static <K, V> WindowView<K, V> times(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        return new WindowView<>(
                store, keySerde, stored -> valueSerde.deserializer().deserialize(store, stored), 0, 0, Kind.TIMES);
    }

    @Override
    public QueryableStoreType<?> type() {
        return kind == Kind.SESSIONS ? QueryableStoreType.sessionStore() : QueryableStoreType.windowStore();
    }

    @Override
    public String typeCall() {
        return kind == Kind.SESSIONS ? "QueryableStoreType.sessionStore()" : "QueryableStoreType.windowStore()";
    }

    /** The window of the entry stored under {@code storeKey}. */
    public Window window(byte[] storeKey) {
        if (kind == Kind.TIMES) {
            long time = WindowKeys.start(storeKey);
            return new Window(time, TimeMath.plus(time, 1));
        }
        return WindowKeys.window(storeKey);
    }

    /** The smallest stored end of an entry whose window ends at or after {@code end}. */
    public long storedEndFrom(long end) {
        return kind == Kind.TIMES ? TimeMath.minus(end, 1) : end;
    }

    /** The stored bytes of {@code key}. */
    public byte[] key(K key) {
        return keySerde.serializer().serialize(store, key);
    }

    /** The key stored as {@code stored}. */
    public K key(byte[] stored) {
        return keySerde.deserializer().deserialize(store, stored);
    }
}
