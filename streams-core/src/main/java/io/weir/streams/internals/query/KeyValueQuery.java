package io.weir.streams.internals.query;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * A query of a key-value store over every copy this instance holds (one per task, each a partition of
 * the store), reading their committed state only: a value written by a transaction that has not
 * committed, or that aborts, is never seen. A point read asks each copy until one has the key (a key
 * lives in one partition); a scan merges the copies in serialized-key order and holds each copy open
 * (its task cannot close it) until the scan ends, so a slow action delays a rebalance.
 *
 * <p>A copy that is restoring makes a scan fail, and a point read that no other copy answers, with
 * {@link Reason#RESTORING}: an answer without it could be wrong. With no copy here the query fails
 * with {@link Reason#NOT_LOCAL}, after the application stopped with {@link Reason#NOT_RUNNING}.
 * Thread-safe.
 */
public final class KeyValueQuery<K, V> implements ReadOnlyKeyValueStore<K, V> {

    private final KeyValueView<K, V> view;
    private final LocalStores local;
    private final BooleanSupplier stopped;

    /** @param stopped whether the application has stopped or failed, so that no store will come back */
    public KeyValueQuery(KeyValueView<K, V> view, LocalStores local, BooleanSupplier stopped) {
        this.view = view;
        this.local = local;
        this.stopped = stopped;
    }

    @Override
    public @Nullable V get(K key) {
        byte[] bytes = view.key(key);
        StoreUnavailableException unavailable = null;
        for (HostedStore copy : copies()) {
            try {
                byte[] stored = copy.read(store -> store.get(bytes));
                if (stored != null) {
                    return view.values().read(stored);
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

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        scan(null, null, action);
    }

    @Override
    public void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action) {
        scan(from == null ? null : view.key(from), to == null ? null : view.key(to), action);
    }

    @Override
    public <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action) {
        byte[] from = prefixSerializer.serialize(view.store(), prefix);
        scan(from, Bytes.prefixEnd(from), action);
    }

    private void scan(byte @Nullable [] from, byte @Nullable [] to, BiConsumer<? super K, ? super V> action) {
        List<HostedStore> locked = new ArrayList<>();
        List<KeyValueIterator> iterators = new ArrayList<>();
        try {
            for (HostedStore copy : copies()) {
                BytesStore store = copy.lock();
                locked.add(copy);
                iterators.add(store.range(from, to));
            }
            PriorityQueue<KeyValueIterator> next =
                    new PriorityQueue<>(Comparator.comparing(KeyValueIterator::peekKey, Arrays::compareUnsigned));
            iterators.stream().filter(KeyValueIterator::hasNext).forEach(next::add);
            while (!next.isEmpty()) {
                KeyValueIterator it = next.poll();
                ByteEntry entry = it.next();
                V value = view.values().read(entry.value());
                if (value != null) {
                    action.accept(view.key(entry.key()), value);
                }
                if (it.hasNext()) {
                    next.add(it);
                }
            }
        } finally {
            iterators.forEach(KeyValueIterator::close);
            locked.forEach(HostedStore::unlock);
        }
    }

    private List<HostedStore> copies() {
        if (stopped.getAsBoolean()) {
            throw new StoreUnavailableException(
                    view.store(),
                    Reason.NOT_RUNNING,
                    "Store '" + view.store() + "' cannot be queried: the application is not running");
        }
        List<HostedStore> copies = local.hosted(view.store());
        if (copies.isEmpty()) {
            throw new StoreUnavailableException(
                    view.store(),
                    Reason.NOT_LOCAL,
                    "No task of this instance holds store '" + view.store() + "' now (it may be rebalancing, or "
                            + "other instances hold all of it); try again, or ask the instance that holds the key");
        }
        return copies;
    }
}
