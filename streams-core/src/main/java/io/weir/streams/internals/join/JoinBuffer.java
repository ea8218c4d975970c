package io.weir.streams.internals.join;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.EventTimeIndex;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One side's buffer of a stream–stream join: the records of one side that a later record of the other
 * side may still match, one entry each, in a store keyed {@code [segment number: 8, sign-flipped][key length:
 * int][key][event time: 8, sign-flipped][sequence: 8]}. A segment is an interval of event time, {@code
 * segmentMs} long; within it the key comes first ({@link KeyTimeKeys}), so the partners of a record are
 * one bounded range scan per segment its window touches, and adding a record is one blind write. An
 * entry's value is {@code [matched: 1][the record]}.
 *
 * <p>Records leave a whole segment at a time: once the watermark passes the segment's last millisecond
 * plus {@code keep}, none of its records can match a record that is not late, and the segment goes in one
 * range delete, with no write per record. That keeps a record up to a segment longer than it could
 * match, which is harmless: a record in a window is never past its own {@code keep} (see {@link
 * StreamStreamJoinProcessor}). A range delete leaves nothing in the changelog, so the changelog deletes
 * by time as well ({@code compact,delete}), and a task that restores drops the segments its restored
 * watermark had already passed.
 *
 * <p>An outer side must emit each unmatched record when the watermark passes exactly its time plus
 * {@code keep}: an {@link ExpiryIndex} in a second store notes when each record added unmatched leaves;
 * a record matched later stays in it and is skipped then. Both stores are changelogged; the sequence
 * continues from the largest in the store when the task starts. Single-threaded, like its task, except
 * {@link #size()}.
 */
final class JoinBuffer {

    /** An unmatched record of an outer side at the end of its window. */
    interface Leaving {
        void accept(byte[] key, long time, byte[] record);
    }

    /** A buffered record in a range scan. */
    interface Visitor {
        void accept(long time, byte[] record);
    }

    private static final byte UNMATCHED = 0;
    private static final byte MATCHED = 1;
    private static final int SEGMENT_BYTES = 8;
    /** Sorts after every 8-byte sequence: the exclusive end of a key's entries at one time. */
    private static final byte[] AFTER_ANY_SEQUENCE = {-1, -1, -1, -1, -1, -1, -1, -1, -1};

    private final WriteBackCache store;
    private final long segmentMs;
    private final long keep;
    /** The records held per segment number; null in a partner's view ({@link #partners}), which only matches. */
    private final @Nullable EventTimeIndex segments;
    /** An outer side's records added unmatched; null for an inner side or a partner's view. */
    private final @Nullable ExpiryIndex unmatched;

    private long sequence;

    private JoinBuffer(
            WriteBackCache store,
            long segmentMs,
            long keep,
            @Nullable EventTimeIndex segments,
            @Nullable ExpiryIndex unmatched) {
        this.store = store;
        this.segmentMs = segmentMs;
        this.keep = keep;
        this.segments = segments;
        this.unmatched = unmatched;
    }

    /**
     * The buffer of this side, which it adds to and expires; drops at once the segments {@code
     * watermark} has passed (restored from a changelog that still held them), unless an unmatched record
     * due by {@code watermark} is still to be handed over ({@link #expire} drops them after it).
     *
     * @param unmatchedStore an outer side's index of its unmatched records, or null for an inner side
     * @param keep how long after its event time a record may still match (the window's far side plus the
     *     allowed lateness)
     */
    static JoinBuffer own(
            WriteBackCache store, @Nullable WriteBackCache unmatchedStore, long segmentMs, long keep, long watermark) {
        EventTimeIndex segments = new EventTimeIndex();
        JoinBuffer buffer = new JoinBuffer(
                store, segmentMs, keep, segments, unmatchedStore == null ? null : new ExpiryIndex(unmatchedStore));
        long next = 0;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                byte[] key = it.next().key();
                segments.add(segmentOf(key));
                next = Math.max(next, ByteBuffer.wrap(key, key.length - 8, 8).getLong() + 1);
            }
        }
        buffer.sequence = next;
        ExpiryIndex index = buffer.unmatched;
        // An unmatched record still pending at this watermark has not been handed over yet: its segment
        // stays until expire() hands it over, then goes with the others.
        if (index == null || !index.anyDue(watermark)) {
            buffer.dropSegments(watermark);
        }
        return buffer;
    }

    /** The other side's buffer, as this side sees it: to match against and mark, never to add to or expire. */
    static JoinBuffer partners(WriteBackCache store, long segmentMs) {
        return new JoinBuffer(store, segmentMs, 0, null, null);
    }

    /**
     * The segment length for a join window of {@code before + after}: half the window, so a record's
     * partners are in at most three segments, and at least a second, so that a short window does not
     * drop a segment (a RocksDB range tombstone) every few milliseconds.
     */
    static long segmentMs(long before, long after) {
        return Math.max(1000, TimeMath.plus(before, after) / 2);
    }

    /** Keeps {@code record} of {@code key} at {@code time}, noting whether it found a partner already. */
    void add(byte[] key, long time, byte[] record, boolean matched) {
        byte[] at = KeyTimeKeys.at(KeyTimeKeys.prefix(key), time);
        long segment = segment(time);
        byte[] entryKey = ByteBuffer.allocate(SEGMENT_BYTES + at.length + 8)
                .putLong(segment ^ Long.MIN_VALUE)
                .put(at)
                .putLong(sequence++)
                .array();
        byte[] value = new byte[record.length + 1];
        value[0] = matched ? MATCHED : UNMATCHED;
        System.arraycopy(record, 0, value, 1, record.length);
        store.put(entryKey, value);
        owned().add(segment);
        ExpiryIndex index = unmatched;
        if (index != null && !matched) {
            index.add(TimeMath.plus(time, keep), entryKey);
        }
    }

    /**
     * Hands every record of {@code key} with its event time in {@code [from, to]} to {@code visitor}, in
     * time order then arrival order; marks each as matched when {@code mark}.
     */
    void match(byte[] key, long from, long to, boolean mark, Visitor visitor) {
        byte[] prefix = KeyTimeKeys.prefix(key);
        // Within a segment, a key's entries from `from` up to every sequence at `to`.
        byte[] lower = KeyTimeKeys.at(prefix, from);
        byte[] upper = Bytes.concat(KeyTimeKeys.at(prefix, to), AFTER_ANY_SEQUENCE);
        List<ByteEntry> entries = new ArrayList<>();
        for (long n = segment(from); n <= segment(to); n++) {
            byte[] segment = segmentPrefix(n);
            try (KeyValueIterator it = store.range(Bytes.concat(segment, lower), Bytes.concat(segment, upper))) {
                while (it.hasNext()) {
                    entries.add(it.next());
                }
            }
        }
        for (ByteEntry entry : entries) {
            byte[] value = entry.value();
            visitor.accept(time(entry.key()), Arrays.copyOfRange(value, 1, value.length));
            if (mark && value[0] == UNMATCHED) {
                byte[] matched = value.clone();
                matched[0] = MATCHED;
                store.put(entry.key(), matched);
            }
        }
    }

    /**
     * Hands an outer side's unmatched records whose time plus {@code keep} is at or before {@code
     * watermark} to {@code leaving}, in that order, then drops the segments the watermark has passed.
     */
    void expire(long watermark, Leaving leaving) {
        ExpiryIndex index = unmatched;
        if (index != null) {
            index.expire(watermark, entryKey -> {
                byte[] value = store.get(entryKey);
                if (value != null && value[0] == UNMATCHED) {
                    int keyLength = ByteBuffer.wrap(entryKey, SEGMENT_BYTES, 4).getInt();
                    int keyStart = SEGMENT_BYTES + 4;
                    leaving.accept(
                            Arrays.copyOfRange(entryKey, keyStart, keyStart + keyLength),
                            time(entryKey),
                            Arrays.copyOfRange(value, 1, value.length));
                }
            });
        }
        dropSegments(watermark);
    }

    /** Deletes, in one range, every segment whose last millisecond plus {@code keep} is at or before {@code watermark}. */
    private void dropSegments(long watermark) {
        EventTimeIndex held = owned();
        long latest = TimeMath.minus(watermark, keep);
        // The last segment whose last millisecond is at or before `latest`.
        long through = latest == Long.MAX_VALUE ? segment(Long.MAX_VALUE) : Math.floorDiv(latest + 1, segmentMs) - 1;
        if (!held.anyThrough(through)) {
            return;
        }
        long droppedThrough = held.purgedThrough();
        store.deleteRange(
                droppedThrough == Long.MIN_VALUE ? null : segmentPrefix(droppedThrough + 1),
                segmentPrefix(through + 1));
        held.purgeThrough(through);
    }

    /** The number of the segment holding {@code time}: segment {@code n} holds {@code [n * segmentMs, (n + 1) * segmentMs)}. */
    private long segment(long time) {
        return Math.floorDiv(time, segmentMs);
    }

    private static byte[] segmentPrefix(long segment) {
        return ByteBuffer.allocate(SEGMENT_BYTES)
                .putLong(segment ^ Long.MIN_VALUE)
                .array();
    }

    private static long segmentOf(byte[] entryKey) {
        return ByteBuffer.wrap(entryKey, 0, SEGMENT_BYTES).getLong() ^ Long.MIN_VALUE;
    }

    /** The event time of an entry: after the key, before the sequence. */
    private static long time(byte[] entryKey) {
        return ByteBuffer.wrap(entryKey, entryKey.length - 16, 8).getLong() ^ Long.MIN_VALUE;
    }

    private EventTimeIndex owned() {
        EventTimeIndex index = segments;
        if (index == null) {
            throw new IllegalStateException("A partner's view of a join buffer only matches");
        }
        return index;
    }

    /** The records held. Safe to read from other threads (gauges). */
    long size() {
        return owned().size();
    }
}
