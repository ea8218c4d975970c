package io.weir.streams.internals.query;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.jspecify.annotations.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The byte-level reads every query view makes over the copies of one store this instance holds (one per
 * task, each a partition of the store), at the moment of each call, committed state only ({@link
 * HostedStore}). Every copy's part of a user key lives in one copy, the key's partition:
 *
 * <ul>
 *   <li>a read of one key ({@link #get}, {@link #scanKey}) asks the copies that can be read; a copy that
 *       cannot (restoring, or closing) makes it fail unless another copy answers it (has an entry of
 *       the key among those read), since the answer may be in that copy;
 *   <li>a scan of every key ({@link #scan}) needs every copy, and fails if one cannot be read.
 * </ul>
 *
 * <p>Scans merge the copies in store-key order (unsigned bytes), the order of a single store, reading each
 * copy in batches with no lock held between them ({@link Cursor}), so no query holds up the runtime. With no copy here a read fails with {@link
 * Reason#NOT_LOCAL}, after the application stopped with {@link Reason#NOT_RUNNING}. Thread-safe.
 */
final class StoreCopies {

    private final String store;
    private final LocalStores local;
    private final BooleanSupplier stopped;
    private final boolean staleReads;
    private final long scanLimit;

    /**
     * @param stopped whether the application has stopped or failed, so that no copy will come back
     * @param staleReads whether standby copies are read too
     * @param scanLimit  the most entries a scan gives
     */
    StoreCopies(String store, LocalStores local, BooleanSupplier stopped, boolean staleReads, long scanLimit) {
        this.store = store;
        this.local = local;
        this.stopped = stopped;
        this.staleReads = staleReads;
        this.scanLimit = scanLimit;
    }

    /** Entries a scan reads from one copy under its lock at a time. */
    static final int BATCH = 1_000;

    String store() {
        return store;
    }

    /** The value stored under {@code key} in the copy that holds it, or null when no copy does. */
    byte @Nullable [] get(byte[] key) {
        StoreUnavailableException unavailable = null;
        for (HostedStore copy : copies()) {
            try {
                byte[] stored = copy.read(s -> s.get(key));
                if (stored != null) {
                    return stored;
                }
            } catch (StoreUnavailableException e) {
                unavailable = e;
            }
        }
        if (unavailable != null) {
            throw unavailable;
        }
        return null;
    }

    /** Calls {@code action} for every entry of every copy with a key in {@code [from, to)} (null: open). */
    void scan(byte @Nullable [] from, byte @Nullable [] to, Consumer<ByteEntry> action) {
        List<Cursor> cursors = new ArrayList<>();
        for (HostedStore copy : copies()) {
            Cursor cursor = new Cursor(copy, from, to);
            cursor.fill();
            cursors.add(cursor);
        }
        merge(cursors, key -> true, action);
    }

    /**
     * Calls {@code action} for the entries with a key in {@code [from, to)} (null: open) that {@code
     * ofKey} says belong to one user key, in the copies that can be read.
     */
    void scanKey(byte @Nullable [] from, byte @Nullable [] to, Predicate<byte[]> ofKey, Consumer<ByteEntry> action) {
        List<Cursor> cursors = new ArrayList<>();
        StoreUnavailableException unavailable = null;
        for (HostedStore copy : copies()) {
            Cursor cursor = new Cursor(copy, from, to);
            try {
                cursor.fill();
                cursors.add(cursor);
            } catch (StoreUnavailableException e) {
                unavailable = e;
            }
        }
        if (!merge(cursors, ofKey, action) && unavailable != null) {
            throw unavailable;
        }
    }

    /**
     * Merges the cursors' entries in key order, calling {@code action} for those {@code select} takes, up
     * to the scan limit; whether it took any.
     */
    private boolean merge(List<Cursor> cursors, Predicate<byte[]> select, Consumer<ByteEntry> action) {
        PriorityQueue<Cursor> next =
                new PriorityQueue<>(Comparator.comparing(Cursor::peekKey, Arrays::compareUnsigned));
        cursors.stream().filter(Cursor::hasNext).forEach(next::add);
        long taken = 0;
        while (!next.isEmpty() && taken < scanLimit) {
            Cursor cursor = next.poll();
            ByteEntry entry = cursor.next();
            if (select.test(entry.key())) {
                taken++;
                action.accept(entry);
            }
            if (cursor.hasNext()) {
                next.add(cursor);
            }
        }
        return taken > 0;
    }

    /**
     * One copy's entries in {@code [from, to)}, read {@value #BATCH} at a time under the copy's read lock
     * and handed out with no lock held: a scan's user code, however slow, never holds up the task that owns
     * the copy (a commit, a revocation, a close wait at most for one batch's read). A copy closed between
     * batches makes the next read fail with {@link StoreUnavailableException} ({@link Reason#NOT_LOCAL}),
     * retriable. Each batch is committed state; a scan over more than a batch may see commits made while
     * it runs.
     */
    private static final class Cursor {
        private final HostedStore copy;
        private final byte @Nullable [] to;
        private final ArrayDeque<ByteEntry> buffer = new ArrayDeque<>();
        private byte @Nullable [] from;
        private boolean exhausted;

        Cursor(HostedStore copy, byte @Nullable [] from, byte @Nullable [] to) {
            this.copy = copy;
            this.from = from;
            this.to = to;
        }

        /** Reads the next batch, if the buffer is empty and the copy has more. */
        void fill() {
            if (!buffer.isEmpty() || exhausted) {
                return;
            }
            copy.read(store -> {
                try (KeyValueIterator it = store.range(from, to)) {
                    while (it.hasNext() && buffer.size() < BATCH) {
                        buffer.add(it.next());
                    }
                    exhausted = !it.hasNext();
                }
                return null;
            });
            ByteEntry last = buffer.peekLast();
            if (last != null) {
                // The smallest key after the last one read: the next batch starts there.
                from = Arrays.copyOf(last.key(), last.key().length + 1);
            }
        }

        boolean hasNext() {
            fill();
            return !buffer.isEmpty();
        }

        byte[] peekKey() {
            return Objects.requireNonNull(buffer.peekFirst(), "peeked after hasNext")
                    .key();
        }

        ByteEntry next() {
            return Objects.requireNonNull(buffer.pollFirst(), "next after hasNext");
        }
    }

    private List<HostedStore> copies() {
        if (stopped.getAsBoolean()) {
            throw new StoreUnavailableException(
                    store,
                    Reason.NOT_RUNNING,
                    "Store '" + store + "' cannot be queried: the application is not running");
        }
        List<HostedStore> copies = local.hosted(store, staleReads);
        if (copies.isEmpty()) {
            throw new StoreUnavailableException(
                    store,
                    Reason.NOT_LOCAL,
                    "No task of this instance holds store '" + store + "' now"
                            + (staleReads ? ", nor a standby copy" : "")
                            + " (it may be rebalancing, or other instances hold all of it); try again, or ask the "
                            + "instance that holds the key");
        }
        return copies;
    }
}
