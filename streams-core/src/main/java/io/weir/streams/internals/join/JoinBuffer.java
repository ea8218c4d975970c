package io.weir.streams.internals.join;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.ExpiryIndex;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.Varints;
import io.weir.streams.internals.state.WriteBackCache;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One side's buffer of a stream–stream join: the records of one side that a later record of the other
 * side may still match, in a store keyed {@link KeyTimeKeys} {@code [key][event time]}, so the partners
 * of a record are one bounded range scan. Each entry holds the records of its key and time, in arrival
 * order, each with a flag saying whether a partner was found (what an outer join needs to know when the
 * record leaves). An {@link ExpiryIndex} in a second store says when each entry leaves: at its event time
 * plus {@code keep}. Both stores are changelogged. Single-threaded, like its task, except {@link #size()}.
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

    private final WriteBackCache store;
    /** Null in a partner's view ({@link #partners}), which only matches. */
    private final @Nullable ExpiryIndex expiry;

    private final long keep;
    // One writer (the task thread); volatile publishes the count to the gauge.
    private volatile long records;

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
        long count = 0;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                count += Varints.read(ByteBuffer.wrap(it.next().value()));
            }
        }
        buffer.records = count;
        return buffer;
    }

    /** The other side's buffer, as this side sees it: to match against and mark, never to add to or expire. */
    static JoinBuffer partners(WriteBackCache store) {
        return new JoinBuffer(store, null, 0);
    }

    /** Keeps {@code record} of {@code key} at {@code time}, noting whether it found a partner already. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // one writer
    void add(byte[] key, long time, byte[] record, boolean matched) {
        byte[] entryKey = KeyTimeKeys.at(KeyTimeKeys.prefix(key), time);
        byte[] entry = store.get(entryKey);
        List<Held> held = entry == null ? new ArrayList<>() : decode(entry);
        held.add(new Held(record, matched));
        store.put(entryKey, encode(held));
        if (entry == null) {
            owned().add(TimeMath.plus(time, keep), entryKey);
        }
        records++;
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
            long time = KeyTimeKeys.time(entry.key());
            List<Held> held = decode(entry.value());
            boolean changed = false;
            for (int i = 0; i < held.size(); i++) {
                Held h = held.get(i);
                visitor.accept(time, h.record());
                if (mark && !h.matched()) {
                    held.set(i, new Held(h.record(), true));
                    changed = true;
                }
            }
            if (changed) {
                store.put(entry.key(), encode(held));
            }
        }
    }

    /** Removes every entry whose time plus {@code keep} is at or before {@code watermark}, handing each record to {@code leaving}. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // one writer
    void expire(long watermark, Leaving leaving) {
        owned().expire(watermark, entryKey -> {
            byte[] entry = store.get(entryKey);
            if (entry == null) {
                return;
            }
            store.delete(entryKey);
            byte[] key = KeyTimeKeys.key(entryKey);
            long time = KeyTimeKeys.time(entryKey);
            for (Held h : decode(entry)) {
                records--;
                leaving.accept(key, time, h.record(), h.matched());
            }
        });
    }

    private ExpiryIndex owned() {
        ExpiryIndex index = expiry;
        if (index == null) {
            throw new IllegalStateException("A partner's view of a join buffer only matches");
        }
        return index;
    }

    /** The records held. */
    long size() {
        return records;
    }

    private record Held(byte[] record, boolean matched) {}

    private static byte[] encode(List<Held> held) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Varints.write(held.size(), out);
        for (Held h : held) {
            out.write(h.matched() ? 1 : 0);
            Varints.write(h.record().length, out);
            out.writeBytes(h.record());
        }
        return out.toByteArray();
    }

    private static List<Held> decode(byte[] entry) {
        ByteBuffer in = ByteBuffer.wrap(entry);
        int count = Varints.read(in);
        List<Held> held = new ArrayList<>(count + 1);
        for (int i = 0; i < count; i++) {
            boolean matched = in.get() == 1;
            byte[] record = new byte[Varints.read(in)];
            in.get(record);
            held.add(new Held(record, matched));
        }
        return held;
    }
}
