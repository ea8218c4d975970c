package io.weir.streams.internals.state;

import io.weir.streams.state.RocksDbConfigSetter;
import org.jspecify.annotations.Nullable;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the RocksDB stores of one instance share: the block cache and write buffer manager that bound
 * their native memory together ({@code rocksdb.memory.max.bytes}), and the user's options hook ({@code
 * rocksdb.config.setter}). Opens stores with them.
 *
 * <p>The bound: one {@link LRUCache} of the bound's size holds every store's data, index and filter
 * blocks, and a {@link WriteBufferManager} charges every memtable to that same cache, flushing the
 * largest when memtables pass their share. So an instance holding 600 tasks uses the same native
 * memory for RocksDB as one holding 6 (plus what RocksDB cannot charge: pinned blocks of open
 * iterators, and each open database's fixed memory). The cache's limit is not strict: RocksDB fails reads
 * of a strictly limited full cache, and a stream thread must not fail for a memory estimate.
 *
 * <p>What no shared object can bound is each open database's own memory: its file writers, table cache,
 * column families' statistics and bookkeeping, about 0.2 MiB a store whatever its data (measured with 600
 * empty stores, after the cuts {@link RocksDbOptions} makes). {@link #openStores()} counts the stores, so
 * an operator can add it up.
 *
 * <p>Index and filter blocks go into the cache's high-priority pool, so a scan of data blocks does not
 * evict them; without that, a point lookup would read its index block from disk again.
 *
 * <p>Thread-safe: stores are opened and closed on any thread; RocksDB's cache and manager are
 * thread-safe. Owned by its instance, closed after every store that uses it; {@link #unshared()} holds
 * no native objects and needs no closing.
 */
public final class RocksDbResources implements StoreOpener, AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private static final RocksDbResources UNSHARED = new RocksDbResources(OptionalLong.empty(), 0.5, null);

    private final @Nullable Cache cache;
    private final @Nullable WriteBufferManager writeBufferManager;
    private final @Nullable RocksDbConfigSetter setter;
    private final long boundBytes;
    private final AtomicInteger openStores = new AtomicInteger();

    private RocksDbResources(OptionalLong bound, double writeBufferRatio, @Nullable RocksDbConfigSetter setter) {
        this.setter = setter;
        this.boundBytes = bound.orElse(-1);
        if (bound.isPresent()) {
            if (bound.getAsLong() < 1 || writeBufferRatio <= 0 || writeBufferRatio >= 1) {
                throw new IllegalArgumentException(
                        "a RocksDB memory bound needs a positive size and a write buffer ratio in (0, 1), was "
                                + bound.getAsLong() + " and " + writeBufferRatio);
            }
            cache = RocksDbOptions.blockCache(bound.getAsLong());
            writeBufferManager = new WriteBufferManager((long) (bound.getAsLong() * writeBufferRatio), cache);
        } else {
            cache = null;
            writeBufferManager = null;
        }
    }

    /**
     * Resources for an instance.
     *
     * @param bound the bound on all stores' native memory, in bytes; empty for none (each store sizes its own)
     * @param writeBufferRatio the share of the bound memtables may take, in (0, 1); read only with a bound
     * @param setter the user's options hook, or null
     */
    public static RocksDbResources of(
            OptionalLong bound, double writeBufferRatio, @Nullable RocksDbConfigSetter setter) {
        return new RocksDbResources(bound, writeBufferRatio, setter);
    }

    /**
     * No bound, no hook: each store has its own cache and memtables (tests, the test driver). One for the
     * process, so its {@link #openStores()} counts every store opened with it.
     */
    public static RocksDbResources unshared() {
        return UNSHARED;
    }

    @Override
    public RocksDbBytesStore open(String name, Path dir) {
        return RocksDbBytesStore.open(name, dir, this);
    }

    /** The options for the store {@code storeName}: shared parts in place, the user's hook applied. */
    RocksDbOptions optionsFor(String storeName) {
        return new RocksDbOptions(storeName, cache, writeBufferManager, setter);
    }

    @Override
    public boolean memoryOverBound() {
        return cache != null && cache.getUsage() > boundBytes;
    }

    /** The stores opened with these resources and not closed yet. */
    public int openStores() {
        return openStores.get();
    }

    void storeOpened() {
        openStores.incrementAndGet();
    }

    void storeClosed() {
        openStores.decrementAndGet();
    }

    /** The bound, in bytes; -1 without one. */
    public long boundBytes() {
        return boundBytes;
    }

    /** The shared cache's use in bytes (blocks, and the memtables charged to it); 0 without a bound. */
    public long usedBytes() {
        return cache == null ? 0 : cache.getUsage();
    }

    /** The part of {@link #usedBytes()} pinned by open iterators and tables, which eviction cannot free. */
    public long pinnedBytes() {
        return cache == null ? 0 : cache.getPinnedUsage();
    }

    /** Closes the shared cache and manager. Call after every store opened with them is closed. */
    @Override
    public void close() {
        if (writeBufferManager != null) {
            writeBufferManager.close();
        }
        if (cache != null) {
            cache.close();
        }
    }
}
