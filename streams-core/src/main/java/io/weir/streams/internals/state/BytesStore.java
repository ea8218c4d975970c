package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * An ordered store of byte keys and values: the one interface through which every store
 * implementation (RocksDB, in-memory) serves the operators, always behind a {@link WriteBackCache}.
 *
 * <p>Keys are ordered as unsigned lexicographic bytes. Writes arrive only as whole {@link StoreBatch}es,
 * applied atomically together with the batch's metadata (e.g. the changelog offsets the batch
 * corresponds to), so the store never holds half a commit.
 *
 * <p>Thread safety: a store belongs to one task and is used by one thread at a time: its task's
 * thread, or while the task restores, a restore writer that the task's thread hands each batch to
 * and waits for (the hand-over and the wait order the accesses). Only {@link #prepareIngest} may run
 * beside another use of the store, on another thread, and so may the reads of queries ({@link #get},
 * {@link #range}) while the task offers the store to them ({@link StoreHosting}), which both
 * implementations allow. Ownership:
 * whoever opens a store closes it; {@link #close()} releases every native handle and is idempotent.
 */
public interface BytesStore extends AutoCloseable {

    /** The store's name (unique within a task). */
    String name();

    /** The value stored under {@code key}, or null. */
    byte @Nullable [] get(byte[] key);

    /**
     * The entries with {@code from <= key < to} in ascending key order; a null bound is open. The
     * caller closes the iterator. The iterator sees the store as it was when the iterator was made.
     */
    KeyValueIterator range(byte @Nullable [] from, byte @Nullable [] to);

    /** Applies every operation of the batch and its metadata atomically. */
    void write(StoreBatch batch);

    /**
     * Applies a batch replayed from the changelog: atomically with its metadata, like {@link #write},
     * but durable only once {@link #endRestore()} returns (RocksDB skips its write-ahead log for it).
     * A crash before then leaves the store at an earlier whole batch, from whose offset the changelog
     * is simply replayed again. Call {@link #endRestore()} before the next {@link #write}.
     */
    default void restore(StoreBatch batch) {
        write(batch);
    }

    /**
     * Bulk-loads entries replayed from a changelog, given in changelog order: of several writes of a
     * key the last wins, a null value deletes. Like {@link #restore}, for a store being restored;
     * what it loads is durable when it returns. By default, one {@link #restore} batch.
     */
    default void ingest(List<StoreBatch.Put> entries) {
        prepareIngest(entries).apply();
    }

    /**
     * The part of {@link #ingest} that does not touch the store (for RocksDB, sorting the entries and
     * writing the file), so that several chunks of one store can be prepared at once, on any threads,
     * while the store loads earlier ones. {@link Ingestion#apply()} then loads the chunk, under the same
     * rules as {@link #ingest}: chunks applied later win over earlier ones. By default the work is all
     * in {@code apply}: one {@link #restore} batch.
     */
    default Ingestion prepareIngest(List<StoreBatch.Put> entries) {
        return () -> {
            StoreBatch batch = new StoreBatch();
            entries.forEach(p -> batch.put(p.key(), p.value()));
            restore(batch);
        };
    }

    /** A chunk of a bulk load, prepared ({@link #prepareIngest}) and waiting to be loaded. */
    @FunctionalInterface
    interface Ingestion {
        /** Loads the chunk into the store: called once, by the thread that uses the store at the time. */
        void apply();
    }

    /** Makes every batch given to {@link #restore} durable. */
    default void endRestore() {}

    /** The metadata value last written under {@code key} by a batch, or null. */
    byte @Nullable [] metadata(String key);

    /** An estimate of the number of entries, for metrics and tests. */
    long approximateEntries();

    /** An estimate of the bytes the entries take, for metrics. */
    long approximateBytes();

    @Override
    void close();
}
