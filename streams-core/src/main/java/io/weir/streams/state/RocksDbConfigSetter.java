package io.weir.streams.state;

/**
 * Expert hook: adjusts the RocksDB options of each store before it opens (setting {@code
 * rocksdb.config.setter}, Kafka Streams' {@code RocksDBConfigSetter} in Weir's terms). Weir makes one
 * instance per {@code WeirStreams} with the class's public no-argument constructor and calls it from
 * every thread that opens a store, so an implementation must be thread-safe.
 *
 * <p>What Weir keeps: after {@link #setConfig}, it sets again the options its guarantees rest on —
 * atomic flush of the data and metadata column families, the write-ahead log, creating missing column
 * families — so a setter cannot weaken exactly-once or restore. Everything else (compaction, block
 * size, compression, bloom filters, memtable sizes, a cache of its own) is the setter's to change.
 *
 * <p>When {@code rocksdb.memory.max.bytes} is set, the options come with the instance's shared block
 * cache and write buffer manager already in place ({@link RocksDbStoreOptions#sharedCache()}): a
 * setter that replaces them takes that store out of the instance's bound.
 *
 * <p>Ownership: RocksDB objects the setter makes for a store (a cache, a filter, a rate limiter) are
 * the setter's to close, in {@link #close}, which runs once the store is closed. The shared cache and
 * write buffer manager are Weir's: never close them.
 */
public interface RocksDbConfigSetter {

    /**
     * Changes the options of one store, before it opens.
     *
     * @param options the store's options, changed in place; valid only during the call
     */
    void setConfig(RocksDbStoreOptions options);

    /**
     * Closes what {@link #setConfig} made for the store {@code storeName}, after the store closed. The
     * default closes nothing.
     *
     * @param storeName the name of the store that closed
     * @param options the options the store was opened with; valid only during the call
     */
    default void close(String storeName, RocksDbStoreOptions options) {}
}
