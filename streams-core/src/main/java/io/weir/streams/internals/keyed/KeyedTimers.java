package io.weir.streams.internals.keyed;

import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.TimeDomain;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The per-key timers of a keyed processor, in a logged store keyed {@code [domain][time][key bytes]}
 * (time big-endian with the sign bit flipped, so byte order is time order): the timers due by a time
 * are one range scan, and a timer is a set member, so registering it twice makes one. The earliest
 * time of each domain is remembered, so a watermark or clock advance with nothing due costs no scan.
 *
 * <p>Timers fire in rounds ({@link #beginRound} ... {@link #endRound}). A timer registered during a
 * round of its own domain at a time the round has already reached is deferred until that clock moves
 * past the round's time: a callback re-registering its own timer, or at the end of input registering
 * ever later ones, must not keep a round going forever. Deferral is kept in memory only; after a
 * restart such a timer is simply due.
 */
// Ordinals index in-memory arrays only; the stored form uses code(domain), fixed whatever the enum's order.
@SuppressWarnings("EnumOrdinal")
final class KeyedTimers {

    /** A due timer: its time and its key's bytes. */
    record Timer(long time, byte[] key) {}

    private static final byte[] NOTHING = new byte[0];
    private final WriteBackCache store;
    private final long[] earliest = new long[TimeDomain.values().length];
    private final long[] roundTime = new long[TimeDomain.values().length];
    private final long[] deferredAt = new long[TimeDomain.values().length];
    private final boolean[] firing = new boolean[TimeDomain.values().length];
    private final List<Set<ByteBuffer>> deferred = new ArrayList<>();

    KeyedTimers(WriteBackCache store) {
        this.store = store;
        for (TimeDomain domain : TimeDomain.values()) {
            earliest[domain.ordinal()] = scan(domain, Long.MIN_VALUE).next();
            deferredAt[domain.ordinal()] = Long.MIN_VALUE;
            deferred.add(new HashSet<>());
        }
    }

    void register(TimeDomain domain, long time, byte[] key) {
        int d = domain.ordinal();
        byte[] storeKey = encode(domain, time, key);
        store.put(storeKey, NOTHING);
        earliest[d] = Math.min(earliest[d], time);
        if (firing[d] && time <= roundTime[d]) {
            deferred.get(d).add(ByteBuffer.wrap(storeKey));
        }
    }

    void delete(TimeDomain domain, long time, byte[] key) {
        store.delete(encode(domain, time, key));
    }

    /** Whether a timer of {@code domain} may be due at {@code now}. */
    boolean mayBeDue(TimeDomain domain, long now) {
        return earliest[domain.ordinal()] <= now;
    }

    /**
     * Starts a round at {@code now}: the timers of {@code domain} due then ({@code time <= now}), in
     * time order, less those deferred by an earlier round at the same time.
     */
    List<Timer> beginRound(TimeDomain domain, long now) {
        int d = domain.ordinal();
        if (now > deferredAt[d]) {
            deferred.get(d).clear();
        }
        firing[d] = true;
        roundTime[d] = now;
        List<Timer> due = scan(domain, now).timers();
        Set<ByteBuffer> skip = deferred.get(d);
        if (!skip.isEmpty()) {
            due = due.stream()
                    .filter(t -> !skip.contains(ByteBuffer.wrap(encode(domain, t.time(), t.key()))))
                    .toList();
        }
        return due;
    }

    /**
     * Removes {@code timer} if it is still registered (a callback may have deleted it since it was
     * found due) and says whether it was.
     */
    boolean take(TimeDomain domain, Timer timer) {
        byte[] key = encode(domain, timer.time(), timer.key());
        if (store.get(key) == null) {
            return false;
        }
        store.delete(key);
        return true;
    }

    /** Ends the round: the earliest timer left (or registered meanwhile) decides the next scan. */
    void endRound(TimeDomain domain) {
        int d = domain.ordinal();
        firing[d] = false;
        deferredAt[d] = roundTime[d];
        earliest[d] = scan(domain, Long.MIN_VALUE).next();
    }

    private record Scan(List<Timer> timers, long next) {}

    /** The timers with {@code time <= now}, and the time of the first one after them (MAX_VALUE: none). */
    private Scan scan(TimeDomain domain, long now) {
        List<Timer> due = new ArrayList<>();
        byte code = code(domain);
        try (KeyValueIterator it = store.range(new byte[] {code}, new byte[] {(byte) (code + 1)})) {
            while (it.hasNext()) {
                byte[] key = it.next().key();
                long time = ByteBuffer.wrap(key, 1, 8).getLong() ^ Long.MIN_VALUE;
                if (time > now) {
                    return new Scan(due, time);
                }
                byte[] timerKey = new byte[key.length - 9];
                System.arraycopy(key, 9, timerKey, 0, timerKey.length);
                due.add(new Timer(time, timerKey));
            }
        }
        return new Scan(due, Long.MAX_VALUE);
    }

    /** The stored code of a domain: fixed here, not the enum's ordinal, so reordering the enum cannot corrupt state. */
    private static byte code(TimeDomain domain) {
        return switch (domain) {
            case EVENT_TIME -> 1;
            case PROCESSING_TIME -> 2;
        };
    }

    private static byte[] encode(TimeDomain domain, long time, byte[] key) {
        return ByteBuffer.allocate(9 + key.length)
                .put(code(domain))
                .putLong(time ^ Long.MIN_VALUE)
                .put(key)
                .array();
    }
}
