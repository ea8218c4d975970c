package io.weir.streams.state;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.WriteBufferManager;

import java.util.Optional;

/**
 * The RocksDB options of one store, as Weir made them, handed to a {@link RocksDbConfigSetter} to change
 * in place before the store opens. The same column family options serve the store's data and its
 * metadata (changelog offsets); the table config is installed in them after the setter returns, so
 * change it here rather than calling {@code setTableFormatConfig} yourself.
 */
public interface RocksDbStoreOptions {

    /**
     * The store's name, as in the topology (e.g. to tune one store differently).
     *
     * @return the store's name
     */
    String storeName();

    /**
     * The options of the database.
     *
     * @return the database options, changed in place
     */
    DBOptions dbOptions();

    /**
     * The options of the store's column families.
     *
     * @return the column family options, changed in place
     */
    ColumnFamilyOptions columnFamilyOptions();

    /**
     * The block-based table config: block cache, block size, bloom filter, index and filter caching.
     *
     * @return the table config, installed in the column family options after the setter returns
     */
    BlockBasedTableConfig tableConfig();

    /**
     * The instance's shared block cache, when {@code rocksdb.memory.max.bytes} is set. Owned by Weir.
     *
     * @return the shared cache, if the instance bounds its RocksDB memory
     */
    Optional<Cache> sharedCache();

    /**
     * The instance's shared write buffer manager, charging memtables to {@link #sharedCache()}, when
     * {@code rocksdb.memory.max.bytes} is set. Owned by Weir.
     *
     * @return the shared write buffer manager, if the instance bounds its RocksDB memory
     */
    Optional<WriteBufferManager> writeBufferManager();
}
