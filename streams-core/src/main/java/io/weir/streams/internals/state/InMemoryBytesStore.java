package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A {@link BytesStore} held on the heap, for tests and for stores small enough not to need RocksDB.
 * Nothing survives {@link #close()}.
 *
 * <p>Writes copy the batch's keys and values, so a caller may reuse its buffers; reads return the
 * stored arrays, which callers must not change (see {@link ByteEntry}). A {@link #range} iterator
 * copies the entries of its range when it is made, so it costs O(entries in range) up front, sees
 * its snapshot even after later writes and stays usable after the store is closed.
 *
 * <p>Reads and writes hold the store's lock: besides its task's thread, queries read it from theirs
 * ({@code WeirStreams.store}), and a range's snapshot is taken under the lock, so a query sees every
 * batch whole or not at all.
 */
public final class InMemoryBytesStore implements BytesStore {

    private final String name;
    private final NavigableMap<byte[], byte[]> data = new TreeMap<>(Arrays::compareUnsigned);
    private final Map<String, byte[]> metadata = new HashMap<>();
    /** The keys' and values' bytes in {@link #data}. */
    private long bytes;

    private boolean closed;

    private InMemoryBytesStore(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** A new, empty store. */
    public static InMemoryBytesStore create(String name) {
        return new InMemoryBytesStore(name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized byte @Nullable [] get(byte[] key) {
        requireOpen();
        return data.get(key);
    }

    @Override
    public synchronized KeyValueIterator range(byte @Nullable [] from, byte @Nullable [] to) {
        requireOpen();
        // Copied into fresh entries: a TreeMap's own entries change in place when a key is overwritten.
        List<ByteEntry> snapshot = slice(from, to).entrySet().stream()
                .map(entry -> new ByteEntry(entry.getKey(), entry.getValue()))
                .toList();
        return new SnapshotIterator(snapshot);
    }

    /** Applies the batch; a null value in a put or in the metadata deletes that key. */
    @Override
    public synchronized void write(StoreBatch batch) {
        requireOpen();
        // Checked before anything changes, so that a bad put cannot leave half a batch applied.
        batch.puts().forEach(put -> Objects.requireNonNull(put.key(), "key"));
        batch.rangeDeletes().forEach(range -> {
            Map<byte[], byte[]> slice = slice(range.from(), range.to());
            slice.forEach((k, v) -> bytes -= k.length + v.length);
            slice.clear();
        });
        for (StoreBatch.Put put : batch.puts()) {
            byte[] value = put.value();
            byte[] old =
                    value == null ? data.remove(put.key()) : data.put(put.key().clone(), value.clone());
            if (old != null) {
                bytes -= put.key().length + old.length;
            }
            if (value != null) {
                bytes += put.key().length + value.length;
            }
        }
        batch.metadata().forEach((key, value) -> {
            if (value == null) {
                metadata.remove(key);
            } else {
                metadata.put(key, value.clone());
            }
        });
    }

    @Override
    public synchronized byte @Nullable [] metadata(String key) {
        requireOpen();
        return metadata.get(key);
    }

    /** Exact: the number of entries. */
    @Override
    public synchronized long approximateEntries() {
        requireOpen();
        return data.size();
    }

    /** Exact: the bytes of the keys and values, without the map's own overhead. */
    @Override
    public synchronized long approximateBytes() {
        requireOpen();
        return bytes;
    }

    /** Idempotent; drops the contents. */
    @Override
    public synchronized void close() {
        closed = true;
        data.clear();
        metadata.clear();
        bytes = 0;
    }

    /** A live view of the entries with {@code from <= key < to}; a null bound is open. */
    private NavigableMap<byte[], byte[]> slice(byte @Nullable [] from, byte @Nullable [] to) {
        if (Bytes.isEmptyRange(from, to)) {
            // TreeMap refuses views with from > to; a fresh map is empty and, unlike
            // Collections.emptyNavigableMap(), can be cleared by a range delete.
            return new TreeMap<>(Arrays::compareUnsigned);
        }
        if (from == null) {
            return to == null ? data : data.headMap(to, false);
        }
        return to == null ? data.tailMap(from, true) : data.subMap(from, true, to, false);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("store " + name + " is closed");
        }
    }

    /** Iterates over entries copied when the iterator was made; holds nothing that needs releasing. */
    private static final class SnapshotIterator extends AbstractKeyValueIterator {

        private final List<ByteEntry> entries;
        private int position;

        SnapshotIterator(List<ByteEntry> entries) {
            this.entries = entries;
        }

        @Override
        protected boolean onEntry() {
            return position < entries.size();
        }

        @Override
        protected byte[] currentKey() {
            return entries.get(position).key();
        }

        @Override
        protected ByteEntry currentEntry() {
            return entries.get(position);
        }

        @Override
        protected void advance() {
            position++;
        }

        @Override
        protected void release() {
            // Nothing to release: the entries are ordinary heap objects.
        }
    }
}
