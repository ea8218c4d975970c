package io.weir.streams.internals.state;

import java.nio.file.Path;

/** Opens the RocksDB store {@code name} in {@code dir} for a task, which then owns and closes it. */
@FunctionalInterface
public interface StoreOpener {

    /**
     * Opens the store, creating its directory and database if missing.
     *
     * @throws StoreException if the store cannot be opened
     */
    RocksDbBytesStore open(String name, Path dir);

    /**
     * Whether the stores this opener opens share a memory bound ({@code rocksdb.memory.max.bytes}) that
     * their use now exceeds; false without a bound.
     */
    default boolean memoryOverBound() {
        return false;
    }
}
