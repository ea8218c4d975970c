package io.weir.streams.internals.join;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.state.ByteEntry;
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
 * side may still match, one entry each, in a store keyed {@code [key length: int][key][event time: 8,
 * sign-flipped][sequence: 8]} ({@link KeyTimeKeys} plus a sequence), so the partners of a record are one
 * bounded range scan and adding a record is a blind write. An entry's value is {@code [matched: 1][the
 * record]}: whether a partner was found, what an outer join needs to know when the record leaves. An
 * {@link ExpiryIndex} in a second store says when each entry leaves: at its event time plus {@code
 * keep}, and, one per record, counts the records held. Both stores are changelogged; the sequence
 * continues from the largest in the store when the task starts. Single-threaded, like its task, except
 * {@link #size()}.
 */
final class JoinBuffer {

    /** A record leaving the buffer, and whether it was ever matched. */
    interface Leaving {
        void accept(byte[] key, long time, byte[] record, boolean matched);
    }

    /** A buffered record in a range scan. */
    interface Visitor {
        void accept(long time, byte[] record);
    }

    private static final byte UNMATCHED = 0;
    private static final byte MATCHED = 1;

    private final WriteBackCache store;
    /** Null in a partner's view ({@link #partners}), which only matches. */
    private final @Nullable ExpiryIndex expiry;

    private final long keep;
    private long sequence;

    private JoinBuffer(WriteBackCache store, @Nullable ExpiryIndex expiry, long keep) {
        this.store = store;
        this.expiry = expiry;
        this.keep = keep;
    }

    /**
     * The buffer of this side, which it adds to and expires.
     *
     * @param keep how long after its event time an entry stays (the window's far side plus the allowed lateness)
     */
    static JoinBuffer own(WriteBackCache store, WriteBackCache expiryStore, long keep) {
        JoinBuffer buffer = new JoinBuffer(store, new ExpiryIndex(expiryStore), keep);
        long next = 0;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                byte[] key = it.next().key();
                next = Math.max(next, ByteBuffer.wrap(key, key.length - 8, 8).getLong() + 1);
            }
        }
        buffer.sequence = next;
        return buffer;
    }

    /** The other side's buffer, as this side sees it: to match against and mark, never to add to or expire. */
    static JoinBuffer partners(WriteBackCache store) {
        return new JoinBuffer(store, null, 0);
    }

    /** Keeps {@code record} of {@code key} at {@code time}, noting whether it found a partner already. */
    void add(byte[] key, long time, byte[] record, boolean matched) {
        byte[] at = KeyTimeKeys.at(KeyTimeKeys.prefix(key), time);
        byte[] entryKey =
                ByteBuffer.allocate(at.length + 8).put(at).putLong(sequence++).array();
        byte[] value = new byte[record.length + 1];
        value[0] = matched ? MATCHED : UNMATCHED;
        System.arraycopy(record, 0, value, 1, record.length);
        store.put(entryKey, value);
        owned().add(TimeMath.plus(time, keep), entryKey);
    }

    /**
     * Hands every record of {@code key} with its event time in {@code [from, to]} to {@code visitor}, in
     * time order then arrival order; marks each as matched when {@code mark}.
     */
    void match(byte[] key, long from, long to, boolean mark, Visitor visitor) {
        byte[] prefix = KeyTimeKeys.prefix(key);
        List<ByteEntry> entries = new ArrayList<>();
        try (KeyValueIterator it = store.range(
                KeyTimeKeys.at(prefix, from), to == Long.MAX_VALUE ? null : KeyTimeKeys.at(prefix, to + 1))) {
            while (it.hasNext()) {
                entries.add(it.next());
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
     * Removes every entry whose time plus {@code keep} is at or before {@code watermark}; with {@code
     * read}, hands each record to {@code leaving} first (an outer side emits its unmatched ones), else
     * deletes it unread.
     */
    void expire(long watermark, boolean read, Leaving leaving) {
        owned().expire(watermark, entryKey -> {
            if (read) {
                byte[] value = store.get(entryKey);
                if (value != null) {
                    int keyLength = ByteBuffer.wrap(entryKey, 0, 4).getInt();
                    leaving.accept(
                            Arrays.copyOfRange(entryKey, 4, 4 + keyLength),
                            time(entryKey),
                            Arrays.copyOfRange(value, 1, value.length),
                            value[0] == MATCHED);
                }
            }
            store.delete(entryKey);
        });
    }

    /** The event time of an entry: after the key, before the sequence. */
    private static long time(byte[] entryKey) {
        return ByteBuffer.wrap(entryKey, entryKey.length - 16, 8).getLong() ^ Long.MIN_VALUE;
    }

    private ExpiryIndex owned() {
        ExpiryIndex index = expiry;
        if (index == null) {
            throw new IllegalStateException("A partner's view of a join buffer only matches");
        }
        return index;
    }

    /** The records held: one expiry entry each. Safe to read from other threads (gauges). */
    long size() {
        return owned().size();
    }
}
