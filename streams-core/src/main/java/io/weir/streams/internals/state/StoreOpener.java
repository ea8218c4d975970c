package io.weir.streams.internals.state;

import java.nio.file.Path;

/** Opens the RocksDB store {@code name} in {@code dir} for a task, which then owns and closes it. */
@FunctionalInterface
public interface StoreOpener {

    /** Opens each store in its directory as it is asked for. */
    StoreOpener DIRECT = RocksDbBytesStore::open;

    /**
     * Opens the store, creating its directory and database if missing.
     *
     * @throws StoreException if the store cannot be opened
     */
    RocksDbBytesStore open(String name, Path dir);
}
