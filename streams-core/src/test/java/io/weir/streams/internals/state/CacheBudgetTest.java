package io.weir.streams.internals.state;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cache budget a stream thread's tasks share (statestore.cache.max.bytes split per thread): one
 * rule per test, on RocksDB stores, whose caches keep what they read.
 */
class CacheBudgetTest {

    // Each entry takes 8 (key) + 100 (value) + the per-entry overhead bytes of the budget.
    private static final int VALUE_BYTES = 100;
    private static final long ENTRY_BYTES = 8 + VALUE_BYTES + WriteBackCache.ENTRY_OVERHEAD;

    @TempDir
    Path dir;

    private final List<RocksDbBytesStore> stores = new ArrayList<>();

    @AfterEach
    void closeStores() {
        stores.forEach(RocksDbBytesStore::close);
    }

    @Test
    void aWriteEvictsWhatTheThreadsOtherCachesReadBeforeItMakesTheThreadCommitEarly() {
        CacheBudget budget = new CacheBudget(20 * ENTRY_BYTES);
        WriteBackCache reader = new WriteBackCache(storeHolding("reader", 15), true, budget);
        assertArrayEquals(value(3), reader.get(key(3)), "the first read brings the whole store in");
        assertEquals(15 * ENTRY_BYTES, budget.usedBytes());

        WriteBackCache writer = new WriteBackCache(storeHolding("writer", 0), true, budget);
        for (int i = 0; i < 18; i++) {
            writer.put(key(i), value(i));
        }

        assertFalse(writer.overBudget(), "the reader's clean entries made room: no early commit");
        assertTrue(budget.usedBytes() <= 20 * ENTRY_BYTES, "used " + budget.usedBytes());
        assertArrayEquals(value(14), reader.get(key(14)), "an evicted entry is read from the store again");
    }

    @Test
    void writesAloneOverTheBudgetMakeTheThreadCommitAndTheCommitFreesThem() {
        CacheBudget budget = new CacheBudget(10 * ENTRY_BYTES);
        WriteBackCache writer = new WriteBackCache(storeHolding("writer", 0), true, budget);
        WriteBackCache other = new WriteBackCache(storeHolding("other", 0), true, budget);
        for (int i = 0; i < 11; i++) {
            writer.put(key(i), value(i));
        }

        assertTrue(other.overBudget(), "the budget is the thread's: every task sees it full");
        writer.completeFlush(writer.prepareFlush(), Map.of());
        assertFalse(writer.overBudget(), "after the commit the written entries are clean, and evicted");
    }

    @Test
    void aClosedCacheGivesItsBytesBackToTheOtherTasks() {
        CacheBudget budget = new CacheBudget(100 * ENTRY_BYTES);
        WriteBackCache closing = new WriteBackCache(storeHolding("closing", 0), true, budget);
        WriteBackCache staying = new WriteBackCache(storeHolding("staying", 0), true, budget);
        closing.put(key(1), value(1));
        staying.put(key(2), value(2));

        closing.close();

        assertEquals(ENTRY_BYTES, budget.usedBytes());
    }

    @Test
    void readingAStoreInStopsAtTheBudgetWithoutEvictingTheOtherCaches() {
        CacheBudget budget = new CacheBudget(20 * ENTRY_BYTES);
        WriteBackCache first = new WriteBackCache(storeHolding("first", 12), true, budget);
        first.get(key(0));
        WriteBackCache second = new WriteBackCache(storeHolding("second", 12), true, budget);
        assertArrayEquals(value(11), second.get(key(11)));
        assertFalse(second.overBudget(), "reading in stopped at the budget");

        second.close();
        assertEquals(12 * ENTRY_BYTES, budget.usedBytes(), "the first cache kept all it read");
    }

    private RocksDbBytesStore storeHolding(String name, int entries) {
        RocksDbBytesStore store = RocksDbBytesStore.open(name, dir.resolve(name));
        stores.add(store);
        StoreBatch batch = new StoreBatch();
        for (int i = 0; i < entries; i++) {
            batch.put(key(i), value(i));
        }
        store.write(batch);
        return store;
    }

    private static byte[] key(int i) {
        return String.format("key-%04d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] value = new byte[VALUE_BYTES];
        value[0] = (byte) i;
        return value;
    }
}
