package io.weir.streams.internals.processor;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.TimeDomain;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-key timers of a keyed processor, in a logged store keyed {@code [domain][time][key bytes]}
 * (time big-endian with the sign bit flipped, so byte order is time order): the timers due by a time
 * are one range scan, and a timer is a set member, so registering it twice makes one. The earliest
 * time of each domain is remembered, so a watermark or clock advance with nothing due costs no scan.
 */
final class KeyedTimers {

    /** A due timer: its time and its key's bytes. */
    record Timer(long time, byte[] key) {
    }

    private static final byte[] NOTHING = new byte[0];
    private final WriteBackCache store;
    private final long[] earliest = new long[TimeDomain.values().length];

    KeyedTimers(WriteBackCache store) {
        this.store = store;
        for (TimeDomain domain : TimeDomain.values()) {
            earliest[domain.ordinal()] = first(domain);
        }
    }

    void register(TimeDomain domain, long time, byte[] key) {
        store.put(encode(domain, time, key), NOTHING);
        earliest[domain.ordinal()] = Math.min(earliest[domain.ordinal()], time);
    }

    void delete(TimeDomain domain, long time, byte[] key) {
        store.delete(encode(domain, time, key));
    }

    /** Whether a timer of {@code domain} may be due at {@code now}. */
    boolean mayBeDue(TimeDomain domain, long now) {
        return earliest[domain.ordinal()] <= now;
    }

    /** Removes and returns the timers of {@code domain} with time {@code <= now}, in time order. */
    List<Timer> takeDue(TimeDomain domain, long now) {
        List<Timer> due = new ArrayList<>();
        long next = Long.MAX_VALUE;
        try (KeyValueIterator it = store.range(new byte[] {(byte) domain.ordinal()},
                new byte[] {(byte) (domain.ordinal() + 1)})) {
            while (it.hasNext()) {
                byte[] key = it.next().key();
                long time = time(key);
                if (time > now) {
                    next = time;
                    break;
                }
                byte[] timerKey = new byte[key.length - 9];
                System.arraycopy(key, 9, timerKey, 0, timerKey.length);
                due.add(new Timer(time, timerKey));
            }
        }
        for (Timer timer : due) {
            store.delete(encode(domain, timer.time(), timer.key()));
        }
        earliest[domain.ordinal()] = next;
        return due;
    }

    private long first(TimeDomain domain) {
        try (KeyValueIterator it = store.range(new byte[] {(byte) domain.ordinal()},
                new byte[] {(byte) (domain.ordinal() + 1)})) {
            if (!it.hasNext()) {
                return Long.MAX_VALUE;
            }
            ByteEntry entry = it.next();
            return time(entry.key());
        }
    }

    private static long time(byte[] storeKey) {
        return ByteBuffer.wrap(storeKey, 1, 8).getLong() ^ Long.MIN_VALUE;
    }

    private static byte[] encode(TimeDomain domain, long time, byte[] key) {
        return ByteBuffer.allocate(9 + key.length).put((byte) domain.ordinal()).putLong(time ^ Long.MIN_VALUE).put(key)
                .array();
    }
}
