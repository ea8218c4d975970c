package io.weir.streams.internals.state;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The write-back cache against a brute-force model: a sorted map of what a reader must see. Random
 * gets, puts, deletes, range deletes, scans and commits over a small key space, so keys are written,
 * read, deleted and written again within and across commits; with and without kept reads, with a
 * budget small enough that clean entries are evicted all the time, and over a store that already
 * holds entries (restored) which the cache does or does not have room to read in, at once or a few entries
 * after each commit. After every commit the store must
 * hold exactly the model, and each commit's changes must be one last value per key written.
 */
class WriteBackCacheModelTest {

    @TempDir
    Path dir;

    static Stream<Arguments> settings() {
        return Stream.of(
                Arguments.of("in-memory, no kept reads", false, false, 1L << 30, 0, WriteBackCache.READ_IN_CHUNK),
                Arguments.of("rocksdb, kept reads", true, true, 1L << 30, 0, WriteBackCache.READ_IN_CHUNK),
                Arguments.of("rocksdb, kept reads, evicting", true, true, 2_000L, 0, WriteBackCache.READ_IN_CHUNK),
                Arguments.of(
                        "rocksdb, kept reads, store written before (fits the cache)",
                        true,
                        true,
                        1L << 30,
                        60,
                        WriteBackCache.READ_IN_CHUNK),
                Arguments.of(
                        "rocksdb, kept reads, store written before (over budget)",
                        true,
                        true,
                        4_000L,
                        60,
                        WriteBackCache.READ_IN_CHUNK),
                Arguments.of("rocksdb, kept reads, store read in 7 entries a commit", true, true, 1L << 30, 200, 7),
                Arguments.of(
                        "rocksdb, kept reads, store read in 7 entries a commit until the budget fills",
                        true,
                        true,
                        60_000L,
                        200,
                        7));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void readsScansAndCommitsMatchTheModel(
            String name, boolean rocksDb, boolean keepReads, long budgetBytes, int prefill, int readInChunk) {
        for (long seed = 1; seed <= 20; seed++) {
            try (BytesStore store = rocksDb
                    ? RocksDbBytesStore.open("model", dir.resolve("s" + seed))
                    : InMemoryBytesStore.create("model")) {
                run(new Random(seed), store, keepReads, budgetBytes, prefill, readInChunk, name + ", seed " + seed);
            }
        }
    }

    private static void run(
            Random random,
            BytesStore store,
            boolean keepReads,
            long budgetBytes,
            int prefill,
            int readInChunk,
            String label) {
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        // Written straight to the store, as a restore does, before the cache is first used.
        StoreBatch restored = new StoreBatch();
        for (int i = 0; i < prefill; i++) {
            byte[] key = key(random);
            byte[] value = ("r" + i).getBytes(StandardCharsets.UTF_8);
            restored.put(key, value);
            model.put(key, value);
        }
        store.write(restored);
        WriteBackCache cache = new WriteBackCache(store, keepReads, new CacheBudget(budgetBytes), readInChunk);
        NavigableMap<byte[], byte[]> writtenSinceCommit = new TreeMap<>(Arrays::compareUnsigned);
        for (int op = 0; op < 3_000; op++) {
            String step = label + ", op " + op;
            int choice = random.nextInt(100);
            if (choice < 30) {
                byte[] key = key(random);
                byte[] value = ("v" + op).getBytes(StandardCharsets.UTF_8);
                cache.put(key, value);
                model.put(key, value);
                writtenSinceCommit.put(key, value);
            } else if (choice < 40) {
                byte[] key = key(random);
                cache.delete(key);
                model.remove(key);
                writtenSinceCommit.put(key, null);
            } else if (choice < 65) {
                byte[] key = key(random);
                assertArrayEquals(model.get(key), cache.get(key), step + ": get " + hex(key));
            } else if (choice < 70) {
                byte[] from = random.nextInt(4) == 0 ? null : key(random);
                byte[] to = random.nextInt(4) == 0 ? null : key(random);
                cache.deleteRange(from, to);
                List<byte[]> gone = new ArrayList<>(sub(model, from, to).keySet());
                gone.forEach(model::remove);
                // A range delete reaches the store as a range delete, not as per-key changes.
                sub(writtenSinceCommit, from, to).clear();
            } else if (choice < 85) {
                byte[] from = random.nextInt(4) == 0 ? null : key(random);
                byte[] to = random.nextInt(4) == 0 ? null : key(random);
                assertEquals(render(sub(model, from, to)), scan(cache, from, to), step + ": range");
            } else {
                WriteBackCache.Flush flush = cache.prepareFlush();
                NavigableMap<byte[], byte[]> changes = new TreeMap<>(Arrays::compareUnsigned);
                for (StoreBatch.Put put : flush.changes()) {
                    assertEquals(null, changes.put(put.key(), put.value()), step + ": one change per key");
                }
                assertEquals(render(writtenSinceCommit), render(changes), step + ": the commit's changes");
                cache.completeFlush(flush, Map.of());
                writtenSinceCommit.clear();
                assertEquals(render(model), scanStore(store), step + ": the store after the commit");
            }
        }
    }

    /** Keys of 9 to 17 bytes over a small space: hashing goes 8 bytes at a time, then byte by byte. */
    private static byte[] key(Random random) {
        byte[] key = new byte[9 + random.nextInt(2) * 8];
        key[0] = (byte) random.nextInt(3);
        key[key.length - 1] = (byte) random.nextInt(40);
        return key;
    }

    private static NavigableMap<byte[], byte[]> sub(NavigableMap<byte[], byte[]> map, byte[] from, byte[] to) {
        if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return new TreeMap<>(Arrays::compareUnsigned);
        }
        NavigableMap<byte[], byte[]> head = to == null ? map : map.headMap(to, false);
        return from == null ? head : head.tailMap(from, true);
    }

    private static List<String> scan(WriteBackCache cache, byte[] from, byte[] to) {
        return drain(cache.range(from, to));
    }

    private static List<String> scanStore(BytesStore store) {
        return drain(store.range(null, null));
    }

    private static List<String> drain(KeyValueIterator iterator) {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator it = iterator) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                out.add(hex(e.key()) + "=" + new String(e.value(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static List<String> render(NavigableMap<byte[], byte[]> map) {
        List<String> out = new ArrayList<>();
        map.forEach(
                (k, v) -> out.add(hex(k) + "=" + (v == null ? "<deleted>" : new String(v, StandardCharsets.UTF_8))));
        return out;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
