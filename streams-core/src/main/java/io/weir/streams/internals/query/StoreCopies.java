package io.weir.streams.internals.query;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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
 * <p>Scans merge the copies in store-key order (unsigned bytes), the order of a single store, and hold
 * each copy open (its task cannot close it) until they end. With no copy here a read fails with {@link
 * Reason#NOT_LOCAL}, after the application stopped with {@link Reason#NOT_RUNNING}. Thread-safe.
 */
final class StoreCopies {

    private final String store;
    private final LocalStores local;
    private final BooleanSupplier stopped;
    private final boolean staleReads;

    /**
     * @param stopped whether the application has stopped or failed, so that no copy will come back
     * @param staleReads whether standby copies are read too
     */
    StoreCopies(String store, LocalStores local, BooleanSupplier stopped, boolean staleReads) {
        this.store = store;
        this.local = local;
        this.stopped = stopped;
        this.staleReads = staleReads;
    }

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
        List<HostedStore> locked = new ArrayList<>();
        List<BytesStore> stores = new ArrayList<>();
        try {
            for (HostedStore copy : copies()) {
                stores.add(copy.lock());
                locked.add(copy);
            }
            merge(stores, from, to, key -> true, action);
        } finally {
            locked.forEach(HostedStore::unlock);
        }
    }

    /**
     * Calls {@code action} for the entries with a key in {@code [from, to)} (null: open) that {@code
     * ofKey} says belong to one user key, in the copies that can be read.
     */
    void scanKey(byte @Nullable [] from, byte @Nullable [] to, Predicate<byte[]> ofKey, Consumer<ByteEntry> action) {
        List<HostedStore> locked = new ArrayList<>();
        List<BytesStore> stores = new ArrayList<>();
        StoreUnavailableException unavailable = null;
        try {
            for (HostedStore copy : copies()) {
                try {
                    stores.add(copy.lock());
                    locked.add(copy);
                } catch (StoreUnavailableException e) {
                    unavailable = e;
                }
            }
            if (!merge(stores, from, to, ofKey, action) && unavailable != null) {
                throw unavailable;
            }
        } finally {
            locked.forEach(HostedStore::unlock);
        }
    }

    /**
     * Merges the copies' entries in {@code [from, to)} in key order, calling {@code action} for
     * those {@code select} takes; whether it took any.
     */
    private static boolean merge(
            List<BytesStore> stores,
            byte @Nullable [] from,
            byte @Nullable [] to,
            Predicate<byte[]> select,
            Consumer<ByteEntry> action) {
        List<KeyValueIterator> iterators = new ArrayList<>(stores.size());
        try {
            for (BytesStore copy : stores) {
                iterators.add(copy.range(from, to));
            }
            PriorityQueue<KeyValueIterator> next =
                    new PriorityQueue<>(Comparator.comparing(KeyValueIterator::peekKey, Arrays::compareUnsigned));
            iterators.stream().filter(KeyValueIterator::hasNext).forEach(next::add);
            boolean selected = false;
            while (!next.isEmpty()) {
                KeyValueIterator it = next.poll();
                ByteEntry entry = it.next();
                if (select.test(entry.key())) {
                    selected = true;
                    action.accept(entry);
                }
                if (it.hasNext()) {
                    next.add(it);
                }
            }
            return selected;
        } finally {
            iterators.forEach(KeyValueIterator::close);
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
