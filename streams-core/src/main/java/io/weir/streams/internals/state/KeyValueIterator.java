package io.weir.streams.internals.state;

import java.util.Iterator;

/**
 * Iterates over byte entries in key order. Must be closed: a RocksDB iterator pins native memory.
 * {@link #peekKey()} returns the next key without advancing (for merging iterators).
 */
public interface KeyValueIterator extends Iterator<ByteEntry>, AutoCloseable {

    /** The key {@link #next()} would return; throws {@link java.util.NoSuchElementException} at the end. */
    byte[] peekKey();

    @Override
    void close();
}
