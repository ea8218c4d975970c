package io.weir.streams.internals.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The write-back cache in front of one {@link BytesStore}: operators read and write here, and the
 * store receives the writes only at commit, as one batch, after the commit's changelog records are
 * safely in Kafka (see docs/concepts/state.md).
 *
 * <p>Reads see the cache's own writes, range deletes included. Dirty entries hold the last value
 * written per key (so the changelog carries one record per key per commit, not one per update).
 * With {@code keepReads}, entries read from or flushed to the store stay cached as clean entries
 * until the task's {@link CacheBudget} needs the room — for RocksDB that saves a native get per
 * record on hot keys; an in-memory store gains nothing from it.
 *
 * <p>Single-threaded: owned by one task. Does not own the store (its {@link TaskStores} does).
 */
public final class WriteBackCache {

    private static final byte[] TOMBSTONE = new byte[0];
    private static final int ENTRY_OVERHEAD = 64;

    private final BytesStore store;
    private final boolean keepReads;
    private final CacheBudget budget;
    private final NavigableMap<byte[], byte[]> dirty = new TreeMap<>(Arrays::compareUnsigned);
    private final NavigableMap<byte[], byte[]> clean = new TreeMap<>(Arrays::compareUnsigned);
    private final List<StoreBatch.RangeDelete> rangeDeletes = new ArrayList<>();
    private long dirtyBytes;
    private long cleanBytes;

    public WriteBackCache(BytesStore store, boolean keepReads, CacheBudget budget) {
        this.store = store;
        this.keepReads = keepReads;
        this.budget = budget;
    }

    public String name() {
        return store.name();
    }

    /** The underlying store, for what the cache does not cover (metadata, size estimates). */
    public BytesStore store() {
        return store;
    }

    public byte[] get(byte[] key) {
        byte[] value = dirty.get(key);
        if (value != null) {
            return value == TOMBSTONE ? null : value;
        }
        value = clean.get(key);
        if (value != null || deletedByRange(key)) {
            return value;
        }
        value = store.get(key);
        if (value != null && keepReads) {
            clean.put(key, value);
            resize(dirtyBytes, cleanBytes + size(key, value));
            evictIfNeeded();
        }
        return value;
    }

    public void put(byte[] key, byte[] value) {
        byte[] stored = value == null ? TOMBSTONE : value;
        byte[] previous = dirty.put(key, stored);
        byte[] wasClean = clean.remove(key);
        resize(dirtyBytes + size(key, stored) - (previous == null ? 0 : size(key, previous)),
                cleanBytes - (wasClean == null ? 0 : size(key, wasClean)));
    }

    public void delete(byte[] key) {
        put(key, null);
    }

    /** Deletes every key in {@code [from, to)}; a null bound is open. O(entries cached in the range). */
    public void deleteRange(byte[] from, byte[] to) {
        resize(dirtyBytes - clear(sub(dirty, from, to)), cleanBytes - clear(sub(clean, from, to)));
        rangeDeletes.add(new StoreBatch.RangeDelete(from, to));
    }

    /** Entries with {@code from <= key < to} in key order, the cache's writes over the store's. Close it. */
    public KeyValueIterator range(byte[] from, byte[] to) {
        KeyValueIterator stored = store.range(from, to);
        return new MergedIterator(new TreeMap<>(sub(dirty, from, to)).entrySet().iterator(), stored);
    }

    /** Whether the task should commit early because its caches outgrew their budget. */
    public boolean overBudget() {
        return budget.exceeded();
    }

    /**
     * The writes since the last commit, as the batch the store will receive and, per key, the last
     * value written (null for a delete) — the changelog records of this commit.
     */
    public Flush prepareFlush() {
        StoreBatch batch = new StoreBatch();
        rangeDeletes.forEach(r -> batch.deleteRange(r.from(), r.to()));
        List<StoreBatch.Put> changes = new ArrayList<>(dirty.size());
        for (Map.Entry<byte[], byte[]> e : dirty.entrySet()) {
            byte[] value = e.getValue() == TOMBSTONE ? null : e.getValue();
            batch.put(e.getKey(), value);
            changes.add(new StoreBatch.Put(e.getKey(), value));
        }
        return new Flush(batch, changes);
    }

    /** Writes a prepared flush (with {@code metadata}, e.g. changelog offsets) to the store, after the commit succeeded. */
    public void completeFlush(Flush flush, Map<String, byte[]> metadata) {
        metadata.forEach(flush.batch()::putMetadata);
        if (!flush.batch().isEmpty()) {
            store.write(flush.batch());
        }
        long moved = 0;
        if (keepReads) {
            for (Map.Entry<byte[], byte[]> e : dirty.entrySet()) {
                if (e.getValue() != TOMBSTONE) {
                    clean.put(e.getKey(), e.getValue());
                    moved += size(e.getKey(), e.getValue());
                }
            }
        }
        dirty.clear();
        rangeDeletes.clear();
        resize(0, cleanBytes + moved);
        evictIfNeeded();
    }

    /** Drops every cached entry, dirty ones included (a task closing dirty after a failed commit). */
    public void discard() {
        dirty.clear();
        clean.clear();
        rangeDeletes.clear();
        resize(0, 0);
    }

    private void evictIfNeeded() {
        if (budget.exceeded() && !clean.isEmpty()) {
            clean.clear();
            resize(dirtyBytes, 0);
        }
    }

    /** Sets this cache's sizes and tells the task's budget the difference. */
    private void resize(long newDirtyBytes, long newCleanBytes) {
        budget.add(newDirtyBytes + newCleanBytes - dirtyBytes - cleanBytes);
        dirtyBytes = newDirtyBytes;
        cleanBytes = newCleanBytes;
    }

    private boolean deletedByRange(byte[] key) {
        for (StoreBatch.RangeDelete r : rangeDeletes) {
            if ((r.from() == null || Arrays.compareUnsigned(key, r.from()) >= 0)
                    && (r.to() == null || Arrays.compareUnsigned(key, r.to()) < 0)) {
                return true;
            }
        }
        return false;
    }

    private long clear(NavigableMap<byte[], byte[]> range) {
        long freed = 0;
        for (Map.Entry<byte[], byte[]> e : range.entrySet()) {
            freed += size(e.getKey(), e.getValue());
        }
        range.clear();
        return freed;
    }

    private static NavigableMap<byte[], byte[]> sub(NavigableMap<byte[], byte[]> map, byte[] from, byte[] to) {
        if (from == null && to == null) {
            return map;
        }
        if (from == null) {
            return map.headMap(to, false);
        }
        if (to == null) {
            return map.tailMap(from, true);
        }
        return map.subMap(from, true, to, false);
    }

    private static long size(byte[] key, byte[] value) {
        return key.length + value.length + ENTRY_OVERHEAD;
    }

    /** The writes of one commit of this cache. */
    public record Flush(StoreBatch batch, List<StoreBatch.Put> changes) {
    }

    /** Cache entries over store entries; cache tombstones and range-deleted store entries hidden. */
    private final class MergedIterator implements KeyValueIterator {
        private final Iterator<Map.Entry<byte[], byte[]>> cached;
        private final KeyValueIterator stored;
        private Map.Entry<byte[], byte[]> nextCached;
        private ByteEntry next;

        MergedIterator(Iterator<Map.Entry<byte[], byte[]>> cached, KeyValueIterator stored) {
            this.cached = cached;
            this.stored = stored;
            this.nextCached = cached.hasNext() ? cached.next() : null;
            advance();
        }

        private void advance() {
            next = null;
            while (next == null) {
                byte[] storedKey = nextStoredKey();
                if (nextCached == null && storedKey == null) {
                    return;
                }
                int cmp = nextCached == null ? 1 : storedKey == null ? -1 : Arrays.compareUnsigned(nextCached.getKey(), storedKey);
                if (cmp <= 0) {
                    if (cmp == 0) {
                        stored.next();
                    }
                    Map.Entry<byte[], byte[]> e = nextCached;
                    nextCached = cached.hasNext() ? cached.next() : null;
                    if (e.getValue() != TOMBSTONE) {
                        next = new ByteEntry(e.getKey(), e.getValue());
                    }
                } else {
                    next = stored.next();
                }
            }
        }

        /** The next store key not hidden by a pending range delete, skipping hidden ones. */
        private byte[] nextStoredKey() {
            while (stored.hasNext()) {
                byte[] key = stored.peekKey();
                if (!deletedByRange(key)) {
                    return key;
                }
                stored.next();
            }
            return null;
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public ByteEntry next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            ByteEntry out = next;
            advance();
            return out;
        }

        @Override
        public byte[] peekKey() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            return next.key();
        }

        @Override
        public void close() {
            stored.close();
        }
    }
}
