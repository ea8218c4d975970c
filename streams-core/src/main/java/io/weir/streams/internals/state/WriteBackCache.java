package io.weir.streams.internals.state;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

/**
 * The write-back cache in front of one {@link BytesStore}: operators read and write here, and the
 * store receives the writes only at commit, as one batch, after the commit's changelog records are
 * safely in Kafka (see docs/concepts/state.md).
 *
 * <p>Reads see the cache's own writes, range deletes included. Dirty entries hold the last value
 * written per key (so the changelog carries one record per key per commit, not one per update).
 * With {@code keepReads}, entries read from or flushed to the store stay cached as clean entries
 * until the {@link CacheBudget} it shares with the other caches of its thread needs the room — for RocksDB that saves a native get per
 * record on hot keys; an in-memory store gains nothing from it.
 *
 * <p>Point reads and writes, the per-record path, are hash lookups. Key order is needed only by
 * {@link #range} and {@link #deleteRange}, which are rare by comparison (a window store scans when
 * a window fires and deletes when windows expire), so the ordered index is brought up to date only
 * then: entries created since are inserted in one go. A key updated a thousand times between two
 * scans costs one ordered insert, not a thousand.
 *
 * <p>With {@code keepReads}, the cache also tries to hold the whole store: from its first use (after any
 * restore, which writes the store directly) it reads the store in, {@value #READ_IN_CHUNK} entries at first
 * use and as many after each commit's flush, when cache and store agree; once it has read to the end with
 * everything fitting the budget, it is <em>complete</em> until it has to evict. Read in one go, a store of
 * a hundred thousand entries stalled the first record of a task that had just moved to this instance for
 * a second. Keys below the read-in's position stay cached while it goes on (written keys enter the cache;
 * an eviction ends the read-in), so the rest needs only the keys above it. A complete cache answers a get of an absent
 * key and every scan from memory, never from the store. That matters beyond the native calls saved:
 * between two memtable flushes RocksDB keeps every committed version of a key, so a scan of a
 * window's keys steps over one version per commit that changed them (a minute-long window updated
 * at every 100 ms commit has hundreds), which made firing a window's panes the slowest step.
 *
 * <p>Why one class: the hash index, the ordered index, the dirty list, the pending range deletes and
 * the budget accounting change together on every write and must agree at every step; a split would
 * spread one invariant over several classes.
 *
 * <p>Single-threaded: owned by one task, on its stream thread. Does not own the store (its task does).
 * Once the cache is first used, the store must be written through it only; once {@link #close closed},
 * not at all.
 */
public final class WriteBackCache {

    private static final byte[] TOMBSTONE = new byte[0];
    /**
     * The heap an entry takes beyond its key and value bytes: the entry, its hash key, the hash and tree map
     * nodes and the two arrays' headers. Measured, not guessed: a heap histogram of an instance holding
     * 870,000 entries of 13 key and value bytes showed about 330 bytes each (MemoryBenchmark, 600 tasks);
     * counted at 64, a 64 MiB budget took 250 MiB of heap.
     */
    static final int ENTRY_OVERHEAD = 320;
    /** The store entries read in at first use and after each flush: a few milliseconds' work. */
    static final int READ_IN_CHUNK = 4096;

    private final BytesStore store;
    private final boolean keepReads;
    private final CacheBudget budget;
    private final int readInChunk;
    /** Every cached entry, dirty and clean. */
    private final Map<Key, Entry> entries = new HashMap<>();
    /** Cached entries in key order, except those still in {@link #unordered}. */
    private final NavigableMap<byte[], Entry> ordered = new TreeMap<>(Arrays::compareUnsigned);

    private final List<Entry> unordered = new ArrayList<>();
    /**
     * The clean entries, so that an eviction visits exactly what it evicts: scanning every entry instead
     * would cost the capacity of the hash index (which does not shrink) at each eviction, and a store
     * read while the task's budget is full evicts at every read.
     */
    private Set<Entry> clean = new LinkedHashSet<>();
    /** Entries written since the last commit, in the order first written; some may have been removed since. */
    private final List<Entry> dirty = new ArrayList<>();

    private final List<StoreBatch.RangeDelete> rangeDeletes = new ArrayList<>();
    private long dirtyBytes;
    private long cleanBytes;
    /** Reads answered here, and reads that went to the store: written by the task's thread. */
    private final Counter hits = new Counter();

    private final Counter rebuilds = new Counter();

    private final Counter misses = new Counter();
    /** The store's estimated size and entries, as of the last commit; read by metrics on any thread. */
    private volatile long storeBytes;

    private volatile long storeEntries;
    private boolean started;
    /**
     * While the store is being read in, the smallest key not read yet (every store key below it is cached);
     * null when no read-in is going on.
     */
    private byte @Nullable [] readInFrom;
    /** Every store entry is cached too (clean, or overwritten by a dirty entry): see the class docs. */
    private boolean complete;

    /** A cached key and its value; {@link #TOMBSTONE} for a delete not yet in the store. */
    private static final class Entry {
        final byte[] key;
        byte[] value;
        boolean isDirty;
        boolean removed;

        Entry(byte[] key, byte[] value, boolean isDirty) {
            this.key = key;
            this.value = value;
            this.isDirty = isDirty;
        }

        long size() {
            return WriteBackCache.size(key, value);
        }
    }

    /** A key's bytes as a hash key: byte arrays compare by identity. */
    private record Key(byte[] bytes, int hash) {
        private static final VarHandle LONGS =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

        /** Hashes eight bytes at a time: store keys are long (a window key is 16 bytes of times, then the key). */
        static Key of(byte[] bytes) {
            long h = bytes.length;
            int i = 0;
            for (; i + 8 <= bytes.length; i += 8) {
                h = h * 0x9E3779B97F4A7C15L + (long) LONGS.get(bytes, i);
            }
            for (; i < bytes.length; i++) {
                h = h * 31 + bytes[i];
            }
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            return new Key(bytes, (int) (h ^ (h >>> 32)));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    public WriteBackCache(BytesStore store, boolean keepReads, CacheBudget budget) {
        this(store, keepReads, budget, READ_IN_CHUNK);
    }

    /** @param readInChunk the store entries read in at first use and after each flush */
    WriteBackCache(BytesStore store, boolean keepReads, CacheBudget budget, int readInChunk) {
        this.store = store;
        this.keepReads = keepReads;
        this.budget = budget;
        this.readInChunk = readInChunk;
        budget.join(this);
    }

    public String name() {
        return store.name();
    }

    /** The underlying store, for what the cache does not cover (metadata, size estimates). */
    public BytesStore store() {
        return store;
    }

    public byte @Nullable [] get(byte[] key) {
        start();
        Entry e = entries.get(Key.of(key));
        if (e != null) {
            hits.increment();
            return e.value == TOMBSTONE ? null : e.value;
        }
        if (complete || deletedByRange(key)) {
            hits.increment();
            return null;
        }
        misses.increment();
        byte[] value = store.get(key);
        if (value != null && keepReads) {
            addClean(new Entry(key, value, false));
            resize(dirtyBytes, cleanBytes + size(key, value));
            evictIfNeeded();
        }
        return value;
    }

    /** Writes {@code value} under {@code key}; a null value deletes it. */
    public void put(byte[] key, byte @Nullable [] value) {
        start();
        byte[] stored = value == null ? TOMBSTONE : value;
        Entry e = entries.get(Key.of(key));
        if (e == null) {
            e = new Entry(key, stored, true);
            add(e);
            dirty.add(e);
            resize(dirtyBytes + e.size(), cleanBytes);
        } else if (e.isDirty) {
            long before = e.size();
            e.value = stored;
            resize(dirtyBytes + e.size() - before, cleanBytes);
        } else {
            long before = e.size();
            e.value = stored;
            e.isDirty = true;
            clean.remove(e);
            dirty.add(e);
            resize(dirtyBytes + e.size(), cleanBytes - before);
        }
        // What the caches read goes before a write makes the thread commit early.
        if (budget.exceeded()) {
            evictIfNeeded();
        }
    }

    public void delete(byte[] key) {
        put(key, null);
    }

    /** Deletes every key in {@code [from, to)}; a null bound is open. O(entries cached in the range). */
    public void deleteRange(byte @Nullable [] from, byte @Nullable [] to) {
        if (Bytes.isEmptyRange(from, to)) {
            return;
        }
        start();
        NavigableMap<byte[], Entry> range = sub(ordered(), from, to);
        long freedDirty = 0;
        long freedClean = 0;
        for (Entry e : range.values()) {
            entries.remove(Key.of(e.key));
            e.removed = true;
            if (e.isDirty) {
                freedDirty += e.size();
            } else {
                clean.remove(e);
                freedClean += e.size();
            }
        }
        range.clear();
        resize(dirtyBytes - freedDirty, cleanBytes - freedClean);
        rangeDeletes.add(new StoreBatch.RangeDelete(from, to));
    }

    /** Entries with {@code from <= key < to} in key order, the cache's writes over the store's. Close it. */
    public KeyValueIterator range(byte @Nullable [] from, byte @Nullable [] to) {
        start();
        // A snapshot: the caller may write to the cache while it iterates. Clean entries are copies
        // of the store's, needed only when the store is not read.
        List<ByteEntry> cached = new ArrayList<>();
        for (Entry e : sub(ordered(), from, to).values()) {
            if (e.isDirty || complete) {
                cached.add(new ByteEntry(e.key, e.value));
            }
        }
        return new MergedIterator(cached.iterator(), complete ? NOTHING_STORED : store.range(from, to));
    }

    /** Whether the thread should commit early because the caches outgrew their budget. */
    public boolean overBudget() {
        return budget.exceeded();
    }

    /**
     * The writes since the last commit, as the batch the store will receive and, per key, the last
     * value written (null for a delete) — the changelog records of this commit, in the order their
     * keys were first written since the last commit (deterministic, and no sort on the commit path).
     */
    public Flush prepareFlush() {
        StoreBatch batch = new StoreBatch();
        rangeDeletes.forEach(r -> batch.deleteRange(r.from(), r.to()));
        dirty.removeIf(e -> e.removed);
        List<StoreBatch.Put> changes = new ArrayList<>(dirty.size());
        for (Entry e : dirty) {
            byte[] value = e.value == TOMBSTONE ? null : e.value;
            batch.put(e.key, value);
            changes.add(new StoreBatch.Put(e.key, value));
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
        for (Entry e : dirty) {
            if (e.removed) {
                continue;
            }
            if (keepReads && e.value != TOMBSTONE) {
                e.isDirty = false;
                clean.add(e);
                moved += e.size();
            } else {
                remove(e);
            }
        }
        dirty.clear();
        rangeDeletes.clear();
        resize(0, cleanBytes + moved);
        evictIfNeeded();
        readIn();
        measureStore();
    }

    /**
     * Reports this cache's reads (hits, misses, their ratio) and its store's estimated size and entries
     * (as of the last commit) in {@code metrics}, under the store's name {@code owner}.
     */
    public void reportTo(String owner, TaskMetrics metrics) {
        measureStore();
        metrics.counter(owner, WeirMetrics.CACHE_HITS, hits);
        metrics.counter(owner, WeirMetrics.STORE_REBUILDS, rebuilds);
        metrics.counter(owner, WeirMetrics.CACHE_MISSES, misses);
        metrics.ratio(owner, WeirMetrics.CACHE_HIT_RATIO, () -> {
            double h = hits.value();
            double all = h + misses.value();
            return all == 0 ? -1 : h / all;
        });
        metrics.gauge(owner, WeirMetrics.STATE_SIZE_BYTES, () -> storeBytes);
        metrics.gauge(owner, WeirMetrics.STATE_ENTRIES, () -> storeEntries);
    }

    /**
     * Reads the store's size on this (the task's) thread, for metrics read on others: a reader from another
     * thread could meet a store being closed.
     */
    private void measureStore() {
        storeBytes = store.approximateBytes();
        storeEntries = store.approximateEntries();
    }

    /**
     * The store under this cache was opened anew after its files were found corrupt, or wiped because its
     * changelog was recreated: counted.
     */
    public void rebuilt() {
        rebuilds.increment();
    }

    /** Drops every cached entry, dirty ones included (a task closing dirty after a failed commit). */
    public void discard() {
        complete = false;
        readInFrom = null;
        entries.values().forEach(e -> e.removed = true);
        entries.clear();
        ordered.clear();
        unordered.clear();
        clean = new LinkedHashSet<>();
        dirty.clear();
        rangeDeletes.clear();
        resize(0, 0);
    }

    /** Drops every cached entry and gives its bytes back to the budget: the task is closing. */
    public void close() {
        discard();
        budget.leave(this);
    }

    private void add(Entry e) {
        entries.put(Key.of(e.key), e);
        unordered.add(e);
    }

    private void addClean(Entry e) {
        add(e);
        clean.add(e);
    }

    private void remove(Entry e) {
        entries.remove(Key.of(e.key));
        e.removed = true;
        clean.remove(e);
        ordered.remove(e.key, e);
    }

    /** The ordered index, with the entries created since it was last used. */
    private NavigableMap<byte[], Entry> ordered() {
        for (Entry e : unordered) {
            if (!e.removed) {
                ordered.put(e.key, e);
            }
        }
        unordered.clear();
        return ordered;
    }

    /** On first use: starts reading the store in if it fits the budget (see the class docs). */
    private void start() {
        if (started) {
            return;
        }
        started = true;
        // Not worth reading in a store that cannot fit only to evict it again.
        if (!keepReads || store.approximateEntries() * ENTRY_OVERHEAD > budget.remainingBytes()) {
            return;
        }
        readInFrom = new byte[0];
        readIn();
    }

    /**
     * Reads up to {@code readInChunk} more store entries in, from {@link #readInFrom}: only when cache and
     * store agree on every cached key (at first use, or right after a flush), so that a key already cached
     * holds the store's value and is skipped. Ends the read-in when the store is read to its end (the cache
     * is then complete) or the budget is exceeded.
     */
    private void readIn() {
        byte[] from = readInFrom;
        if (from == null) {
            return;
        }
        int read = 0;
        try (KeyValueIterator it = store.range(from, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                if (read++ == readInChunk) {
                    readInFrom = e.key();
                    return;
                }
                if (entries.containsKey(Key.of(e.key()))) {
                    continue;
                }
                addClean(new Entry(e.key(), e.value(), false));
                resize(dirtyBytes, cleanBytes + size(e.key(), e.value()));
                if (budget.exceeded()) {
                    // Reading in stops here; it never evicts what the other caches hold.
                    readInFrom = null;
                    evictClean();
                    return;
                }
            }
        }
        readInFrom = null;
        complete = true;
    }

    /**
     * While the budget is exceeded, evicts this cache's clean entries, then those of the thread's other
     * caches: what was read is dropped before a write makes the thread commit early.
     */
    private void evictIfNeeded() {
        evictClean();
        if (budget.exceeded()) {
            budget.reclaim(this);
        }
    }

    /**
     * While the budget is exceeded, evicts this cache's clean entries, oldest first (the order they
     * became clean), until it no longer is or none is left.
     */
    void evictClean() {
        if (!budget.exceeded() || cleanBytes == 0) {
            return;
        }
        complete = false;
        readInFrom = null;
        long freed = 0;
        Iterator<Entry> it = clean.iterator();
        while (it.hasNext() && budget.remainingBytes() + freed < 0) {
            Entry e = it.next();
            it.remove();
            entries.remove(Key.of(e.key));
            e.removed = true;
            ordered.remove(e.key, e);
            freed += e.size();
        }
        if (clean.isEmpty()) {
            // A set's clear costs its capacity, which never shrinks: start a new one instead.
            clean = new LinkedHashSet<>();
        }
        // Evicted entries still in the list are skipped when it is next drained; drop them once
        // they outnumber the live ones, so a store never scanned cannot pile them up.
        if (unordered.size() > 2 * entries.size() + 1024) {
            unordered.removeIf(e -> e.removed);
        }
        resize(dirtyBytes, cleanBytes - freed);
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

    private static NavigableMap<byte[], Entry> sub(
            NavigableMap<byte[], Entry> map, byte @Nullable [] from, byte @Nullable [] to) {
        if (Bytes.isEmptyRange(from, to)) {
            return Collections.emptyNavigableMap();
        }
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
        return (long) key.length + value.length + ENTRY_OVERHEAD;
    }

    /** The writes of one commit of this cache. */
    public record Flush(StoreBatch batch, List<StoreBatch.Put> changes) {}

    /** What a complete cache merges its entries with: the store is not read. */
    private static final KeyValueIterator NOTHING_STORED = new KeyValueIterator() {
        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public ByteEntry next() {
            throw new NoSuchElementException();
        }

        @Override
        public byte[] peekKey() {
            throw new NoSuchElementException();
        }

        @Override
        public void close() {}
    };

    /** Cache entries over store entries; cache tombstones and range-deleted store entries hidden. */
    private final class MergedIterator implements KeyValueIterator {
        private final Iterator<ByteEntry> cached;
        private final KeyValueIterator stored;
        private @Nullable ByteEntry nextCached;
        private @Nullable ByteEntry next;

        MergedIterator(Iterator<ByteEntry> cached, KeyValueIterator stored) {
            this.cached = cached;
            this.stored = stored;
            this.nextCached = cached.hasNext() ? cached.next() : null;
            advance();
        }

        private void advance() {
            next = null;
            while (next == null) {
                byte[] storedKey = nextStoredKey();
                ByteEntry e = nextCached;
                if (e == null && storedKey == null) {
                    return;
                }
                int cmp = e == null ? 1 : storedKey == null ? -1 : Arrays.compareUnsigned(e.key(), storedKey);
                if (e != null && cmp <= 0) {
                    if (cmp == 0) {
                        stored.next();
                    }
                    nextCached = cached.hasNext() ? cached.next() : null;
                    if (e.value() != TOMBSTONE) {
                        next = e;
                    }
                } else {
                    next = stored.next();
                }
            }
        }

        /** The next store key not hidden by a pending range delete, skipping hidden ones. */
        private byte @Nullable [] nextStoredKey() {
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
            ByteEntry out = next;
            if (out == null) {
                throw new NoSuchElementException();
            }
            advance();
            return out;
        }

        @Override
        public byte[] peekKey() {
            ByteEntry out = next;
            if (out == null) {
                throw new NoSuchElementException();
            }
            return out.key();
        }

        @Override
        public void close() {
            stored.close();
        }
    }
}
