package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Holder;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A {@link BytesStore} in a RocksDB database of its own directory: data in the default column family,
 * batch metadata (such as changelog offsets) in the {@value #METADATA_COLUMN_FAMILY} column family.
 *
 * <p>Durability: each batch is appended to RocksDB's write-ahead log without a sync, and flushes are
 * atomic across both column families. A killed process therefore loses no written batch; a machine
 * crash may lose the last ones, and recovery stops before the first damaged batch. Either way what
 * survives is whole batches with the metadata written with them: the changelog past the stored
 * offsets restores the rest. {@link #flush()} and a clean {@link #close()} also write the memtables
 * to SST files.
 *
 * <p>A {@link #range} iterator reads a snapshot and holds native memory: close it promptly. Closing the
 * store closes the iterators still open (their later use throws {@link IllegalStateException}).
 *
 * <p>Not thread-safe: used by one thread at a time, as {@link BytesStore} requires. Failures of
 * RocksDB are thrown as {@link StoreException}.
 *
 * <p>Why one class: every operation works on the same native handles (database, column families,
 * options, open iterators), whose order of closing matters; the tuning is apart, in
 * {@link RocksDbOptions}, and iteration in {@link RocksDbIterator}.
 */
public final class RocksDbBytesStore implements BytesStore {

    /** The column family that holds {@link StoreBatch#metadata()}, keyed by the UTF-8 of each key. */
    public static final String METADATA_COLUMN_FAMILY = "weir-metadata";

    private static final Logger log = LoggerFactory.getLogger(RocksDbBytesStore.class);
    private static final byte[] FIRST_KEY = new byte[0];

    static {
        RocksDB.loadLibrary();
    }

    private final String name;
    private final RocksDbOptions options;
    private final RocksDbResources shared;
    private final RocksDB db;
    private final ColumnFamilyHandle data;
    private final ColumnFamilyHandle metadata;
    // Queries iterate on their own threads (WeirStreams.store) beside the task's thread.
    private final Set<RocksDbIterator> openIterators = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final Path dir;
    private final AtomicInteger ingested = new AtomicInteger();

    private RocksDbBytesStore(
            String name,
            Path dir,
            RocksDbOptions options,
            RocksDbResources shared,
            RocksDB db,
            ColumnFamilyHandle data,
            ColumnFamilyHandle metadata) {
        this.name = name;
        this.dir = dir;
        this.options = options;
        this.shared = shared;
        this.db = db;
        this.data = data;
        this.metadata = metadata;
    }

    /**
     * Opens the store in {@code dir} with options of its own, outside any instance's memory bound (see
     * {@link RocksDbResources#unshared()}).
     *
     * @throws StoreException if the directory cannot be made or RocksDB cannot open it
     */
    public static RocksDbBytesStore open(String name, Path dir) {
        return open(name, dir, RocksDbResources.unshared());
    }

    /**
     * Opens the store in {@code dir}, creating the directory and the database if missing. The caller
     * owns the store and closes it. A directory holds one open store at a time: RocksDB locks it.
     *
     * @param shared what the instance's stores share (memory bound, options hook); must outlive the store
     * @throws StoreException if the directory cannot be made or RocksDB cannot open it
     */
    static RocksDbBytesStore open(String name, Path dir, RocksDbResources shared) {
        Objects.requireNonNull(name, "name");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("cannot create the directory of store " + name + ": " + dir, e);
        }
        RocksDbOptions options = shared.optionsFor(name);
        List<ColumnFamilyDescriptor> columns = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, options.columnFamily()),
                new ColumnFamilyDescriptor(METADATA_COLUMN_FAMILY.getBytes(UTF_8), options.columnFamily()));
        List<ColumnFamilyHandle> handles = new ArrayList<>(columns.size());
        try {
            RocksDB db = RocksDB.open(options.db(), dir.toString(), columns, handles);
            RocksDbBytesStore store =
                    new RocksDbBytesStore(name, dir, options, shared, db, handles.get(0), handles.get(1));
            shared.storeOpened();
            return store;
        } catch (RocksDBException e) {
            options.close();
            throw new StoreException("cannot open store " + name + " in " + dir, e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Asks {@code keyMayExist} first: rocksdbjni's {@code get} reports a missing key by throwing a C++
     * exception and catching it again inside the JNI call, and the unwinding costs more than the
     * lookup (facebook/rocksdb#13023). Window stores miss on the first record of every window, so
     * that is a large share of gets. {@code keyMayExist} answers false only when the key is surely
     * absent (memtables and bloom filters, no IO), and hands back the value when it found it in
     * memory, so the full {@code get} runs only for keys it could not settle (and for empty values).
     */
    @Override
    public byte @Nullable [] get(byte[] key) {
        requireOpen();
        try {
            Holder<byte[]> inMemory = new Holder<>();
            if (!db.keyMayExist(data, key, inMemory)) {
                return null;
            }
            // An empty value handed back is not trusted: for an entry of an ingested SST file read
            // after a reopen, keyMayExist hands back an empty array for a value that is not empty
            // (rocksdbjni 10.1; BytesStoreContractTest#aRocksDbIngestSurvivesAReopen).
            byte[] found = inMemory.getValue();
            return found != null && found.length > 0 ? found : db.get(data, key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        }
    }

    @Override
    public KeyValueIterator range(byte @Nullable [] from, byte @Nullable [] to) {
        requireOpen();
        RocksDbIterator iterator = new RocksDbIterator(db, data, from, to, openIterators::remove);
        openIterators.add(iterator);
        return iterator;
    }

    /**
     * Applies the batch as one RocksDB {@link WriteBatch}; a null value in a put or in the metadata
     * deletes that key. Survives a killed process once this returns (see the class comment).
     */
    @Override
    public void write(StoreBatch batch) {
        write(batch, options.write());
    }

    /** Without the write-ahead log: see {@link BytesStore#restore}. */
    @Override
    public void restore(StoreBatch batch) {
        write(batch, options.restore());
    }

    /**
     * Writes the entries, sorted with the last write of each key kept, to one SST file in the store's
     * directory with RocksDB's {@code SstFileWriter}; applying it ingests the file (moved in, synced).
     * No memtable, no write-ahead log, no flush: a bulk load costs a sort and a sequential file
     * write. Ingested files get newer sequence numbers than what the store holds, so a chunk applied
     * later overrides an earlier one. Preparing reads only the options and the directory, so it may
     * run on another thread while the store is used; a file prepared and never applied stays in the
     * directory as {@code ingest-N.sst} until the store is wiped (RocksDB ignores it).
     */
    @Override
    public Ingestion prepareIngest(List<StoreBatch.Put> entries) {
        requireOpen();
        if (entries.isEmpty()) {
            return () -> {};
        }
        List<StoreBatch.Put> sorted = new ArrayList<>(entries);
        // Stable: of equal keys the later write stays later, and is the one kept.
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
        Path file = dir.resolve("ingest-" + ingested.getAndIncrement() + ".sst");
        try (EnvOptions env = new EnvOptions();
                Options fileOptions = new Options(options.db(), options.columnFamily());
                SstFileWriter writer = new SstFileWriter(env, fileOptions)) {
            writer.open(file.toString());
            for (int i = 0; i < sorted.size(); i++) {
                StoreBatch.Put p = sorted.get(i);
                if (i + 1 < sorted.size()
                        && Arrays.equals(p.key(), sorted.get(i + 1).key())) {
                    continue;
                }
                if (p.value() == null) {
                    writer.delete(p.key());
                } else {
                    writer.put(p.key(), p.value());
                }
            }
            writer.finish();
        } catch (RocksDBException e) {
            throw failure("ingest", e);
        }
        return () -> {
            requireOpen();
            try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
                db.ingestExternalFile(data, List.of(file.toString()), ingest);
            } catch (RocksDBException e) {
                throw failure("ingest", e);
            }
        };
    }

    /** Flushes the memtables, which hold the restored batches no log covers. */
    @Override
    public void endRestore() {
        flush();
    }

    private void write(StoreBatch batch, WriteOptions writeOptions) {
        requireOpen();
        try (WriteBatch writes = new WriteBatch()) {
            for (StoreBatch.RangeDelete range : batch.rangeDeletes()) {
                addRangeDelete(writes, range);
            }
            for (StoreBatch.Put put : batch.puts()) {
                if (put.value() == null) {
                    writes.delete(data, put.key());
                } else {
                    writes.put(data, put.key(), put.value());
                }
            }
            for (Map.Entry<String, byte[]> entry : batch.metadata().entrySet()) {
                byte[] key = entry.getKey().getBytes(UTF_8);
                if (entry.getValue() == null) {
                    writes.delete(metadata, key);
                } else {
                    writes.put(metadata, key, entry.getValue());
                }
            }
            db.write(writeOptions, writes);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    @Override
    public byte @Nullable [] metadata(String key) {
        requireOpen();
        try {
            return db.get(metadata, key.getBytes(UTF_8));
        } catch (RocksDBException e) {
            throw failure("read metadata", e);
        }
    }

    /**
     * RocksDB's estimate: it counts every version of a key and every range delete still in the
     * memtables, so it runs high after overwrites and deletes until a flush or compaction drops them.
     */
    @Override
    public long approximateEntries() {
        requireOpen();
        try {
            return db.getLongProperty(data, "rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            throw failure("estimate entries", e);
        }
    }

    /** RocksDB's estimate of its live data on disk plus what its memtables hold. */
    @Override
    public long approximateBytes() {
        requireOpen();
        try {
            return db.getLongProperty(data, "rocksdb.estimate-live-data-size")
                    + db.getLongProperty(data, "rocksdb.cur-size-all-mem-tables");
        } catch (RocksDBException e) {
            throw failure("estimate size", e);
        }
    }

    /** Persists everything written so far, data and metadata together, and waits until it is on disk. */
    public void flush() {
        requireOpen();
        flushColumnFamilies();
    }

    /**
     * Closes the iterators still open, flushes, and closes every native object of the store, each
     * after the objects that use it. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!openIterators.isEmpty()) {
            log.warn("Store {} closed with {} iterators still open; closing them", name, openIterators.size());
            List.copyOf(openIterators).forEach(RocksDbIterator::close);
        }
        RuntimeException failed = null;
        try {
            flushColumnFamilies();
        } catch (RuntimeException e) {
            failed = e;
        }
        data.close();
        metadata.close();
        try {
            db.closeE();
        } catch (RocksDBException e) {
            StoreException closing = failure("close", e);
            if (failed == null) {
                failed = closing;
            } else {
                failed.addSuppressed(closing);
            }
        } finally {
            options.close();
            shared.storeClosed();
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Adds a delete of {@code [from, to)} to {@code writes}. RocksDB has no open upper bound, so a null
     * {@code to} ends just past the last key stored now; and it rejects a range that is empty, even
     * {@code [k, k)}, failing the whole batch, so empty ranges are left out.
     */
    private void addRangeDelete(WriteBatch writes, StoreBatch.RangeDelete range) throws RocksDBException {
        byte[] from = range.from() == null ? FIRST_KEY : range.from();
        byte[] to = range.to() == null ? pastLastKey() : range.to();
        if (to != null && !Bytes.isEmptyRange(from, to)) {
            writes.deleteRange(data, from, to);
        }
    }

    /** The smallest key greater than every stored key, or null if the store is empty. */
    private byte @Nullable [] pastLastKey() throws RocksDBException {
        try (RocksIterator iterator = db.newIterator(data)) {
            iterator.seekToLast();
            if (iterator.isValid()) {
                return Bytes.successor(iterator.key());
            }
            iterator.status();
            return null;
        }
    }

    /** The bytes the store's memtables (both column families) take now, written and not yet flushed. */
    public long memtableBytes() {
        requireOpen();
        try {
            return db.getLongProperty(data, "rocksdb.cur-size-all-mem-tables")
                    + db.getLongProperty(metadata, "rocksdb.cur-size-all-mem-tables");
        } catch (RocksDBException e) {
            throw failure("memtable size", e);
        }
    }

    /**
     * Flushes the memtables to SST files now, both column families as one unit, and waits: frees their
     * memory. Call on the thread that writes the store (between its writes, so data and offsets stay together).
     */
    public void flushMemtables() {
        requireOpen();
        flushColumnFamilies();
    }

    private void flushColumnFamilies() {
        // Atomic flush covers only the column families a manual flush names: flushing the default
        // one alone would persist data without the offsets written with it.
        try (FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flushOptions, List.of(data, metadata));
        } catch (RocksDBException e) {
            throw failure("flush", e);
        }
    }

    private StoreException failure(String operation, RocksDBException cause) {
        return new StoreException(operation + " failed in store " + name, cause);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("store " + name + " is closed");
        }
    }
}
