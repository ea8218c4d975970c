package io.weir.streams.internals.task;

import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.CacheBudget;
import io.weir.streams.internals.state.CorruptStores;
import io.weir.streams.internals.state.InMemoryBytesStore;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.StoreHosting;
import io.weir.streams.internals.state.StoreOpener;
import io.weir.streams.internals.state.Stores;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreType;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The state stores of one task, each behind its write-back cache, sharing the {@link CacheBudget} of
 * the task's thread, and the instance's global tables, which the task reads. Owns its own stores: {@link #close()} closes
 * every one (RocksDB handles included), never a global table's. RocksDB stores live under
 * {@code <taskDir>/<store>}. Single-threaded, like its task.
 */
public final class TaskStores implements Stores, AutoCloseable {

    private final Map<String, WriteBackCache> caches = new LinkedHashMap<>();
    private final Map<String, StoreSpec> specs = new LinkedHashMap<>();
    private final CacheBudget budget;
    private final Map<String, GlobalStore<?, ?>> globals;
    private @Nullable StoreHosting hosting;

    public TaskStores(Collection<StoreSpec> stores, Path taskDir, CacheBudget budget) {
        this(stores, taskDir, budget, Map.of());
    }

    /**
     * @param budget  the cache budget this task's caches share with the other tasks of its thread
     * @param globals the instance's global tables by store name, which this task reads and does not own
     */
    public TaskStores(
            Collection<StoreSpec> stores, Path taskDir, CacheBudget budget, Map<String, GlobalStore<?, ?>> globals) {
        this(stores, taskDir, budget, globals, null, RocksDbResources.unshared());
    }

    /**
     * @param hosting where this task's queryable stores are offered to queries ({@link #ready()} makes
     *     them readable, {@link #close()} withdraws them first), or null for stores no query reads
     * @param opener  what opens the RocksDB stores (perhaps opened already: {@link PreopenedStores})
     */
    public TaskStores(
            Collection<StoreSpec> stores,
            Path taskDir,
            CacheBudget budget,
            Map<String, GlobalStore<?, ?>> globals,
            @Nullable StoreHosting hosting,
            StoreOpener opener) {
        this.globals = globals;
        this.hosting = hosting;
        this.budget = budget;
        try {
            for (StoreSpec spec : stores) {
                boolean[] rebuilt = new boolean[1];
                BytesStore store = spec.type() == StoreType.ROCKSDB
                        ? CorruptStores.open(
                                opener,
                                spec.name(),
                                spec.logged(),
                                taskDir.resolve(spec.name()),
                                () -> rebuilt[0] = true)
                        : InMemoryBytesStore.create(spec.name());
                WriteBackCache cache = new WriteBackCache(store, spec.type() == StoreType.ROCKSDB, budget);
                if (rebuilt[0]) {
                    cache.rebuilt();
                }
                caches.put(spec.name(), cache);
                specs.put(spec.name(), spec);
            }
            if (hosting != null) {
                offer(hosting);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Offers the queryable stores to queries through {@code where} from now on, withdrawing them from
     * where they were offered until now (waiting for the reads under way): a standby copy that becomes
     * the active task.
     */
    public void hostIn(StoreHosting where) {
        if (hosting != null) {
            hosting.close();
        }
        hosting = where;
        offer(where);
    }

    private void offer(StoreHosting where) {
        caches.forEach((name, cache) -> {
            if (spec(name).queryable() != null) {
                where.host(name, cache.store());
            }
        });
    }

    @Override
    public WriteBackCache cache(String name) {
        WriteBackCache cache = caches.get(name);
        if (cache == null) {
            throw new IllegalArgumentException("No store named '" + name + "' in this task; it has " + caches.keySet());
        }
        return cache;
    }

    @Override
    public ReadOnlyKeyValueStore<?, ?> globalTable(String name) {
        GlobalStore<?, ?> store = globals.get(name);
        if (store == null) {
            throw new IllegalArgumentException(
                    "No global table named '" + name + "'; the topology's global tables are " + globals.keySet());
        }
        return store.view();
    }

    public Collection<String> names() {
        return caches.keySet();
    }

    public StoreSpec spec(String name) {
        StoreSpec spec = specs.get(name);
        if (spec == null) {
            throw new IllegalArgumentException("No store named '" + name + "' in this task; it has " + specs.keySet());
        }
        return spec;
    }

    /** The task's RocksDB stores (its in-memory stores left out). */
    public List<RocksDbBytesStore> rocksDbStores() {
        List<RocksDbBytesStore> stores = new ArrayList<>();
        for (WriteBackCache cache : caches.values()) {
            if (cache.store() instanceof RocksDbBytesStore rocksDb) {
                stores.add(rocksDb);
            }
        }
        return stores;
    }

    /** Whether the caches outgrew their budget, so the task should commit now. */
    public boolean overBudget() {
        return budget.exceeded();
    }

    /** Every store's pending writes, to be logged and then applied by {@link #completeCommit}. */
    public List<StoreFlush> prepareCommit() {
        List<StoreFlush> flushes = new ArrayList<>(caches.size());
        caches.forEach((name, cache) -> flushes.add(new StoreFlush(name, cache.prepareFlush())));
        return flushes;
    }

    /** Applies prepared flushes to the stores, each with its metadata (e.g. changelog offsets). */
    public void completeCommit(List<StoreFlush> flushes, Map<String, Map<String, byte[]>> metadata) {
        for (StoreFlush f : flushes) {
            cache(f.store()).completeFlush(f.flush(), metadata.getOrDefault(f.store(), Map.of()));
        }
    }

    /** The stores are restored: queries may read the queryable ones. */
    public void ready() {
        if (hosting != null) {
            hosting.ready();
        }
    }

    @Override
    public void close() {
        if (hosting != null) {
            hosting.close();
        }
        RuntimeException failure = null;
        for (WriteBackCache cache : caches.values()) {
            cache.close();
            try {
                cache.store().close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** One store's part of a commit. */
    public record StoreFlush(String store, WriteBackCache.Flush flush) {}
}
