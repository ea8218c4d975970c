package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

import java.util.function.Consumer;

/**
 * A {@link RocksDbBytesStore} range: a RocksDB iterator over a snapshot taken when the range was made,
 * bounded above by RocksDB itself so that it never reads past {@code to}.
 *
 * <p>A RocksDB iterator already reads one point in time without a snapshot; the explicit snapshot
 * makes that point visible in RocksDB's own statistics ({@code rocksdb.num-snapshots},
 * {@code rocksdb.oldest-snapshot-time}), where an iterator left open shows up.
 *
 * <p>Holds native memory (the iterator, its read options, its bound) and pins a snapshot, which keeps
 * RocksDB from dropping overwritten and deleted entries in compaction: close it promptly. Ownership:
 * the caller of {@code range} closes it; its store closes it too if the store is closed first.
 */
final class RocksDbIterator extends AbstractKeyValueIterator {

    private final RocksDB db;
    private final Snapshot snapshot;
    private final @Nullable Slice upperBound;
    private final ReadOptions readOptions;
    private final RocksIterator iterator;
    private final Consumer<RocksDbIterator> onClose;

    /**
     * The entries of {@code column} with {@code from <= key < to}; a null bound is open.
     * {@code onClose} is told once, after the native objects are released.
     */
    RocksDbIterator(
            RocksDB db,
            ColumnFamilyHandle column,
            byte @Nullable [] from,
            byte @Nullable [] to,
            Consumer<RocksDbIterator> onClose) {
        this.db = db;
        this.onClose = onClose;
        snapshot = db.getSnapshot();
        upperBound = to == null ? null : new Slice(to);
        readOptions = new ReadOptions().setSnapshot(snapshot);
        if (upperBound != null) {
            readOptions.setIterateUpperBound(upperBound);
        }
        iterator = db.newIterator(column, readOptions);
        if (from == null) {
            iterator.seekToFirst();
        } else {
            iterator.seek(from);
        }
    }

    @Override
    protected boolean onEntry() {
        if (iterator.isValid()) {
            return true;
        }
        // An invalid iterator is either at the end or failed; only status() tells which.
        try {
            iterator.status();
        } catch (RocksDBException e) {
            throw new StoreException("iteration failed", e);
        }
        return false;
    }

    @Override
    protected byte[] currentKey() {
        return iterator.key();
    }

    @Override
    protected ByteEntry currentEntry() {
        return new ByteEntry(iterator.key(), iterator.value());
    }

    @Override
    protected void advance() {
        iterator.next();
    }

    /** The iterator first, then what it reads through: the options, the bound and the snapshot. */
    @Override
    protected void release() {
        iterator.close();
        readOptions.close();
        if (upperBound != null) {
            upperBound.close();
        }
        db.releaseSnapshot(snapshot);
        onClose.accept(this);
    }
}
