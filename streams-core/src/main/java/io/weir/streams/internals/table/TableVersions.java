package io.weir.streams.internals.table;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.WriteBackCache;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;

/**
 * The versions of a versioned table, kept in three stores:
 * <ul>
 *   <li>the table's own store holds each key's latest version by event time, a {@link TableRow} stamped
 *       with the event time it is valid from (a delete is a row without a value), so whatever reads a
 *       table's current rows reads a versioned one unchanged;</li>
 *   <li>{@code <store>-history} holds the older versions, under {@code [key length: int][key][valid from:
 *       8, sign-flipped]} ({@link KeyTimeKeys}), so a key's versions are one range in time order;</li>
 *   <li>{@code <store>-history-expiry} ({@link ExpiryIndex}) says when each older version, and each
 *       latest delete, leaves: when the watermark passes the end of its validity (the next version's
 *       start) plus the history retention.</li>
 * </ul>
 * An update at or after the latest version's time becomes the latest (the old latest goes to history);
 * an older one goes into history between its neighbours and changes nothing current; one whose time is
 * already the retention behind the watermark is refused. Single-threaded, like its task.
 */
public final class TableVersions {

    /** What an update did. */
    public enum Outcome {
        /** It is the key's latest version now. */
        LATEST,
        /** It went into the history: the latest version is later. */
        HISTORY,
        /** Its time is the history retention behind the watermark: refused. */
        TOO_OLD
    }

    private static final byte HISTORY_ENTRY = 'h';
    private static final byte LATEST_DELETE = 'l';

    private final WriteBackCache latest;
    private final WriteBackCache history;
    private final ExpiryIndex expiry;
    private final WriteBackCache expiryStore;
    private final long retention;

    public TableVersions(WriteBackCache latest, WriteBackCache history, WriteBackCache expiryStore, long retention) {
        this.latest = latest;
        this.history = history;
        this.expiry = new ExpiryIndex(expiryStore);
        this.expiryStore = expiryStore;
        this.retention = retention;
    }

    /** The history store of versioned table store {@code store}. */
    public static String historyStoreOf(String store) {
        return store + "-history";
    }

    /** The expiry index store of versioned table store {@code store}. */
    public static String expiryStoreOf(String store) {
        return store + "-history-expiry";
    }

    /**
     * Writes the version {@code row} (a stored table row; without a value for a delete) of {@code key},
     * valid from {@code time}, judged against {@code watermark}.
     */
    public Outcome put(byte[] key, byte[] row, long time, long watermark) {
        if (gone(time, watermark)) {
            return Outcome.TOO_OLD;
        }
        byte[] current = latest.get(key);
        if (current == null || time >= TableRowCodec.timestamp(current)) {
            if (current != null) {
                retire(key, current, time, watermark);
            }
            latest.put(key, row);
            if (TableRowCodec.isDelete(row)) {
                expiry.add(TimeMath.plus(time, retention), marker(LATEST_DELETE, key, time));
            }
            return Outcome.LATEST;
        }
        byte[] prefix = prefix(key);
        byte[] at = historyKey(prefix, time);
        if (history.get(at) != null) {
            history.put(at, row);
            return Outcome.HISTORY;
        }
        long next = TableRowCodec.timestamp(current);
        byte[] previousKey = null;
        try (KeyValueIterator it = history.range(prefix, historyKey(prefix, time))) {
            while (it.hasNext()) {
                previousKey = it.next().key();
            }
        }
        try (KeyValueIterator it = history.range(historyKey(prefix, time), historyKey(prefix, next))) {
            if (it.hasNext()) {
                next = KeyTimeKeys.time(it.next().key());
            }
        }
        if (gone(next, watermark)) {
            return Outcome.TOO_OLD;
        }
        history.put(at, row);
        expiry.add(TimeMath.plus(next, retention), marker(HISTORY_ENTRY, at, 0));
        if (previousKey != null) {
            // The version before ends where this one starts now, no longer where the next one does.
            expiry.remove(TimeMath.plus(next, retention), marker(HISTORY_ENTRY, previousKey, 0));
            if (gone(time, watermark)) {
                history.delete(previousKey);
            } else {
                expiry.add(TimeMath.plus(time, retention), marker(HISTORY_ENTRY, previousKey, 0));
            }
        }
        return Outcome.HISTORY;
    }

    /** The latest version {@code current} of {@code key} is replaced by one valid from {@code until}. */
    private void retire(byte[] key, byte[] current, long until, long watermark) {
        long from = TableRowCodec.timestamp(current);
        if (TableRowCodec.isDelete(current)) {
            expiry.remove(TimeMath.plus(from, retention), marker(LATEST_DELETE, key, from));
        }
        if (from == until || gone(until, watermark)) {
            return;
        }
        byte[] at = historyKey(prefix(key), from);
        history.put(at, current);
        expiry.add(TimeMath.plus(until, retention), marker(HISTORY_ENTRY, at, 0));
    }

    /** Whether a version that ended at {@code end} is past the retention at {@code watermark}. */
    private boolean gone(long end, long watermark) {
        return watermark != Long.MIN_VALUE && TimeMath.plus(end, retention) <= watermark;
    }

    /**
     * Deletes the versions {@code watermark} has passed by the retention; called before each commit,
     * one index scan per commit. Reads within the retention never need what is deleted, so when the
     * purge runs changes nothing they return.
     */
    public void advance(long watermark) {
        expiry.expire(watermark, marker -> {
            byte[] key = new byte[marker.length - 9];
            System.arraycopy(marker, 9, key, 0, key.length);
            if (marker[0] == HISTORY_ENTRY) {
                history.delete(key);
                return;
            }
            if (marker[0] != LATEST_DELETE) {
                throw UnknownFormatException.unknownKind(
                        "Store '" + expiryStore.name() + "'",
                        "versioned table's expiry entry",
                        marker[0],
                        "'h' (" + HISTORY_ENTRY + ", an older version) and 'l' (" + LATEST_DELETE
                                + ", a latest delete)");
            }
            byte[] current = latest.get(key);
            long at = ByteBuffer.wrap(marker, 1, 8).getLong();
            if (current != null && TableRowCodec.isDelete(current) && TableRowCodec.timestamp(current) == at) {
                latest.delete(key);
            }
        });
    }

    /**
     * The stored row of {@code key} valid at {@code asOf} (a delete's row too), or null: read from the
     * latest store, else the history.
     */
    public static byte @Nullable [] at(WriteBackCache latest, WriteBackCache history, byte[] key, long asOf) {
        byte[] current = latest.get(key);
        if (current == null) {
            return null;
        }
        if (TableRowCodec.timestamp(current) <= asOf) {
            return current;
        }
        byte[] prefix = prefix(key);
        byte[] found = null;
        byte[] to = asOf == Long.MAX_VALUE ? null : historyKey(prefix, asOf + 1);
        try (KeyValueIterator it = history.range(prefix, to)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                found = e.value();
            }
        }
        return found;
    }

    private static byte[] prefix(byte[] key) {
        return KeyTimeKeys.prefix(key);
    }

    private static byte[] historyKey(byte[] prefix, long time) {
        return KeyTimeKeys.at(prefix, time);
    }

    /**
     * An expiry index entry: {@code [kind][time: 8][key]}, the time only for a latest delete. A kind this
     * code does not know fails with an {@link UnknownFormatException} rather than being taken for one it does.
     */
    private static byte[] marker(byte kind, byte[] key, long time) {
        return ByteBuffer.allocate(9 + key.length)
                .put(kind)
                .putLong(time)
                .put(key)
                .array();
    }
}
