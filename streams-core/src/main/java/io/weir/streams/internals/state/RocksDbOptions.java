package io.weir.streams.internals.state;

import io.weir.streams.state.RocksDbConfigSetter;
import io.weir.streams.state.RocksDbStoreOptions;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Filter;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

import java.util.Optional;

/**
 * The native RocksDB options of one {@link RocksDbBytesStore}, tuned for Weir's workload: write-heavy,
 * time-ordered window stores, several per instance, on machines with few cores and little memory.
 *
 * <p>With a memory bound ({@link RocksDbResources}), the block cache and the write buffer manager
 * are the instance's, shared by every store; without one, each store has a cache of its own. The
 * user's {@link RocksDbConfigSetter} runs last, and the options the store's guarantees rest on are set
 * again after it.
 *
 * <p>Ownership: made by one store, used for both of its column families, and closed by that store
 * after its database, since the database reads the options until it is closed. Closes what it made,
 * never the shared cache or manager.
 */
final class RocksDbOptions implements AutoCloseable {

    private static final long MIB = 1024 * 1024;

    // Per store and shared by its two column families, so a store's memory has one bound; not
    // shared between stores, so a scan of one store cannot evict another's hot blocks. Modest
    // because an instance holds many stores and the OS page cache backs it.
    private static final long BLOCK_CACHE_BYTES = 16 * MIB;

    // About 1% false positives: a point lookup of an absent key (common: a window not yet seen)
    // then almost never reads a data block.
    private static final double BLOOM_BITS_PER_KEY = 10;

    // Window stores are read mostly by time-ordered range scans, which larger blocks serve with
    // fewer reads, a smaller index and better compression than the 4 KiB default.
    private static final long BLOCK_SIZE_BYTES = 16 * 1024;

    // Below the 64 MiB default: many stores share a small machine.
    private static final long WRITE_BUFFER_BYTES = 16 * MIB;

    // Several memtables' worth, so the WAL rarely forces small flushes.
    private static final long MAX_TOTAL_WAL_BYTES = 64 * MIB;

    // One more than the default: writes go on into a third memtable while two wait to be flushed,
    // so a burst does not stall the stream thread.
    private static final int MAX_WRITE_BUFFERS = 3;

    // Pinned to the core count of the machines Weir targets, so flushes and compactions never
    // take every core from the stream threads.
    private static final int MAX_BACKGROUND_JOBS = 2;

    // One shard instead of 64: a store's table cache is used by its task's thread and a few background
    // and query threads, too few to contend, and each shard costs a store native memory outside any
    // bound (about 20 KiB a store with 64, measured with 600 stores).
    private static final int TABLE_CACHE_SHARD_BITS = 0;

    // The part of a block cache kept for index and filter blocks: enough for the partitions in use,
    // little enough to leave the rest to data blocks.
    private static final double HIGH_PRIORITY_POOL_RATIO = 0.1;

    private final String storeName;
    private final @Nullable Cache ownCache;
    private final Filter bloomFilter;
    private final BlockBasedTableConfig tableConfig;
    private final ColumnFamilyOptions columnFamilyOptions;
    private final DBOptions dbOptions;
    private final WriteOptions writeOptions;
    private final WriteOptions restoreOptions;
    private final @Nullable Cache sharedCache;
    private final @Nullable WriteBufferManager writeBufferManager;
    private final @Nullable RocksDbConfigSetter setter;

    /**
     * @param sharedCache the instance's block cache, or null for one of this store's own
     * @param writeBufferManager the instance's write buffer manager (with {@code sharedCache}), or null
     * @param setter the user's hook, or null
     */
    RocksDbOptions(
            String storeName,
            @Nullable Cache sharedCache,
            @Nullable WriteBufferManager writeBufferManager,
            @Nullable RocksDbConfigSetter setter) {
        this.storeName = storeName;
        this.sharedCache = sharedCache;
        this.writeBufferManager = writeBufferManager;
        this.setter = setter;
        ownCache = sharedCache == null ? blockCache(BLOCK_CACHE_BYTES) : null;
        bloomFilter = new BloomFilter(BLOOM_BITS_PER_KEY);
        tableConfig = new BlockBasedTableConfig()
                .setBlockCache(sharedCache != null ? sharedCache : ownCache)
                .setFilterPolicy(bloomFilter)
                .setBlockSize(BLOCK_SIZE_BYTES)
                // Counts index and filter blocks against the cache bound instead of holding them
                // outside it, where they grow with the data without limit.
                .setCacheIndexAndFilterBlocks(true)
                // In the cache's high-priority pool, so scans of data blocks do not evict them.
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                // Index and filter in partitions of a few KiB under a small top level, pinned: a
                // point read loads the partitions it needs, never a whole file's filter. Whole
                // filters of a large store (megabytes at 10 bits per key) were evicted by data
                // blocks and read again, and point reads of a 3-million-row store took most of a
                // query's CPU time (Nexmark q16, docs/benchmarks/nexmark.md).
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setPartitionFilters(true)
                .setPinTopLevelIndexAndFilter(true);
        columnFamilyOptions = new ColumnFamilyOptions()
                // Decompresses faster than the Snappy default at a similar ratio; CPU is the
                // scarce resource on a two-core machine.
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(WRITE_BUFFER_BYTES)
                .setMaxWriteBufferNumber(MAX_WRITE_BUFFERS);
        dbOptions = new DBOptions()
                // Bounds the WAL (and the reopen time replaying it): past this, the memtables it
                // covers are flushed.
                .setMaxTotalWalSize(MAX_TOTAL_WAL_BYTES)
                .setMaxBackgroundJobs(MAX_BACKGROUND_JOBS)
                .setTableCacheNumshardbits(TABLE_CACHE_SHARD_BITS)
                // To slf4j, not a LOG file of each store (see RocksDbLogger).
                .setLogger(RocksDbLogger.instance())
                // RocksDB's statistics dump every 10 minutes is logged at INFO: work for every store that
                // only TRACE logging would show.
                .setStatsDumpPeriodSec(0);
        if (writeBufferManager != null) {
            dbOptions.setWriteBufferManager(writeBufferManager);
        }
        // The WAL, not synced: a batch is in the OS page cache when write() returns, so a killed
        // process loses nothing and its restart replays from the changelog only what came after
        // its last commit. Without it, a kill would lose every memtable (up to 48 MiB a store)
        // and restart would replay all of that from Kafka. Syncing would add a disk flush per
        // commit to guard against power loss, which the changelog already covers.
        writeOptions = new WriteOptions().setDisableWAL(false).setSync(false);
        // Restoring replays what the changelog already holds: logging it again would only double the
        // disk writes. A flush ends the restore (see BytesStore#restore).
        restoreOptions = new WriteOptions().setDisableWAL(true);
        if (setter != null) {
            try {
                setter.setConfig(view());
            } catch (RuntimeException e) {
                closeOptions();
                throw new IllegalStateException(
                        "The rocksdb.config.setter " + setter.getClass().getName() + " failed for store " + storeName
                                + ", which therefore does not open: " + e,
                        e);
            }
        }
        columnFamilyOptions.setTableFormatConfig(tableConfig);
        // Set after the user's hook: the store's guarantees rest on these.
        dbOptions
                .setCreateIfMissing(true)
                // The metadata column family is made on a store's first open.
                .setCreateMissingColumnFamilies(true)
                // Flushing both column families as one unit keeps the stored changelog offsets
                // (metadata) consistent with the data in the SST files, whatever the WAL holds.
                .setAtomicFlush(true)
                // After a machine crash the unsynced WAL may end mid-batch: recover every whole
                // batch before the damage and stop there. Data and offsets share each batch, so the
                // store is some committed state; the changelog replays the rest.
                .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery);
    }

    /**
     * A block cache of {@code bytes} with a high-priority pool for index and filter blocks: a store's own,
     * or the instance's under a memory bound. rocksdbjni's one-argument constructor has no such pool.
     */
    static LRUCache blockCache(long bytes) {
        return new LRUCache(bytes, -1, false, HIGH_PRIORITY_POOL_RATIO);
    }

    /** What the user's hook sees: this store's options and the shared parts. */
    private RocksDbStoreOptions view() {
        return new RocksDbStoreOptions() {
            @Override
            public String storeName() {
                return storeName;
            }

            @Override
            public DBOptions dbOptions() {
                return dbOptions;
            }

            @Override
            public ColumnFamilyOptions columnFamilyOptions() {
                return columnFamilyOptions;
            }

            @Override
            public BlockBasedTableConfig tableConfig() {
                return tableConfig;
            }

            @Override
            public Optional<Cache> sharedCache() {
                return Optional.ofNullable(sharedCache);
            }

            @Override
            public Optional<WriteBufferManager> writeBufferManager() {
                return Optional.ofNullable(writeBufferManager);
            }
        };
    }

    ColumnFamilyOptions columnFamily() {
        return columnFamilyOptions;
    }

    DBOptions db() {
        return dbOptions;
    }

    WriteOptions write() {
        return writeOptions;
    }

    WriteOptions restore() {
        return restoreOptions;
    }

    /** Closes the options, then the table objects they refer to. Call after the database is closed. */
    @Override
    public void close() {
        if (setter != null) {
            setter.close(storeName, view());
        }
        closeOptions();
    }

    /** Frees the native options this store made; not the shared cache and manager, which the instance owns. */
    private void closeOptions() {
        writeOptions.close();
        restoreOptions.close();
        dbOptions.close();
        columnFamilyOptions.close();
        bloomFilter.close();
        if (ownCache != null) {
            ownCache.close();
        }
    }
}
