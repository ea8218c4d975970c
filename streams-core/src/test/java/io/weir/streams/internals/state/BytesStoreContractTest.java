package io.weir.streams.internals.state;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@link BytesStore} contract, asserted identically against every implementation. */
class BytesStoreContractTest {

    /** Opens a new store; RocksDB keeps it in {@code dir}. */
    @FunctionalInterface
    interface StoreFactory {
        BytesStore open(Path dir);
    }

    /** Runs the annotated test once per implementation. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.weir.streams.internals.state.BytesStoreContractTest#implementations")
    @interface EachStore {}

    static Stream<Named<StoreFactory>> implementations() {
        return Stream.of(
                Named.of("in-memory", dir -> InMemoryBytesStore.create("contract")),
                Named.of("rocksdb", dir -> RocksDbBytesStore.open("contract", dir)));
    }

    @TempDir
    Path dir;

    @EachStore
    void getReturnsTheLastValuePutAndNullForAbsentKeys(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            store.write(new StoreBatch().put(b("k"), b("v1")));
            store.write(new StoreBatch().put(b("k"), b("v2")));

            assertArrayEquals(b("v2"), store.get(b("k")));
            assertNull(store.get(b("absent")));
        }
    }

    @EachStore
    void deleteRemovesTheKeyOnly(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b");
            store.write(new StoreBatch().delete(b("a")));

            assertNull(store.get(b("a")));
            assertEquals(List.of("b"), keys(store, null, null));
        }
    }

    @EachStore
    void writeCopiesTheCallersArrays(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            byte[] key = b("k");
            byte[] value = b("v");
            byte[] offset = {1};
            store.write(new StoreBatch().put(key, value).putMetadata("offset", offset));
            key[0] = 'x';
            value[0] = 'x';
            offset[0] = 9;

            assertArrayEquals(b("v"), store.get(b("k")));
            assertArrayEquals(new byte[] {1}, store.metadata("offset"));
        }
    }

    @EachStore
    void keysOrderAsUnsignedBytes(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            StoreBatch batch = new StoreBatch();
            for (int key : new int[] {0xff, 0x00, 0x80, 0x7f}) {
                batch.put(new byte[] {(byte) key}, b("v"));
            }
            batch.put(new byte[] {0x7f, 0x00}, b("v"));
            store.write(batch);

            assertEquals(List.of("00", "7f", "7f00", "80", "ff"), hexKeys(store.range(null, null)));
            assertEquals(
                    List.of("7f00", "80"), hexKeys(store.range(new byte[] {0x7f, 0x00}, new byte[] {(byte) 0xff})));
        }
    }

    @EachStore
    void rangeReturnsKeysFromInclusiveToExclusive(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b", "c", "d", "e");

            assertEquals(List.of("b", "c"), keys(store, b("b"), b("d")));
            assertEquals(List.of("b", "c"), keys(store, b("az"), b("cz")));
            assertEquals(List.of("a", "b"), keys(store, null, b("c")));
            assertEquals(List.of("d", "e"), keys(store, b("d"), null));
            assertEquals(List.of("a", "b", "c", "d", "e"), keys(store, null, null));
        }
    }

    @EachStore
    void rangeEntriesCarryTheirValues(StoreFactory factory) {
        try (BytesStore store = factory.open(dir);
                KeyValueIterator iterator = seeded(store, "a", "b").range(null, null)) {
            ByteEntry first = iterator.next();
            assertArrayEquals(b("a"), first.key());
            assertArrayEquals(b("value-a"), first.value());
            assertArrayEquals(b("value-b"), iterator.next().value());
        }
    }

    @EachStore
    void emptyRangesYieldNothing(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            assertEquals(List.of(), keys(store, null, null));
            seed(store, "b", "c", "d");

            assertEquals(List.of(), keys(store, b("c"), b("c")));
            assertEquals(List.of(), keys(store, b("d"), b("b")));
            assertEquals(List.of(), keys(store, b("x"), null));
            assertEquals(List.of(), keys(store, null, b("a")));
            assertEquals(List.of(), keys(store, b("bb"), b("c")));
        }
    }

    @EachStore
    void peekKeyDoesNotAdvanceAndBothThrowAtTheEnd(StoreFactory factory) {
        try (BytesStore store = factory.open(dir);
                KeyValueIterator iterator = seeded(store, "a", "b").range(null, null)) {
            assertArrayEquals(b("a"), iterator.peekKey());
            assertArrayEquals(b("a"), iterator.peekKey());
            assertArrayEquals(b("a"), iterator.next().key());
            assertArrayEquals(b("b"), iterator.peekKey());
            iterator.next();

            assertFalse(iterator.hasNext());
            assertThrows(NoSuchElementException.class, iterator::peekKey);
            assertThrows(NoSuchElementException.class, iterator::next);
        }
    }

    @EachStore
    void rangeDeleteWithBothBoundsRemovesFromInclusiveToExclusive(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b", "bb", "c", "d");
            store.write(new StoreBatch().deleteRange(b("b"), b("c")));

            assertEquals(List.of("a", "c", "d"), keys(store, null, null));
        }
    }

    @EachStore
    void rangeDeleteWithOpenBoundsReachesTheEnds(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            StoreBatch batch = new StoreBatch()
                    .put(new byte[0], b("empty key"))
                    .put(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}, b("last key"));
            store.write(batch);
            seed(store, "a", "b", "c", "d");

            store.write(new StoreBatch().deleteRange(null, b("b")));
            assertEquals(List.of("62", "63", "64", "ffffff"), hexKeys(store.range(null, null)));

            store.write(new StoreBatch().deleteRange(b("d"), null));
            assertEquals(List.of("b", "c"), keys(store, null, null));

            store.write(new StoreBatch().deleteRange(null, null));
            assertEquals(List.of(), keys(store, null, null));
        }
    }

    @EachStore
    void emptyRangeDeletesChangeNothing(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b", "c");
            store.write(new StoreBatch()
                    .deleteRange(b("b"), b("b"))
                    .deleteRange(b("c"), b("a"))
                    .put(b("d"), b("value-d")));

            assertEquals(List.of("a", "b", "c", "d"), keys(store, null, null));
        }
    }

    @EachStore
    void rangeDeletesApplyBeforeThePutsOfTheirBatch(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b", "c");
            store.write(new StoreBatch()
                    .put(b("b"), b("new-b"))
                    .deleteRange(b("a"), b("c"))
                    .put(b("z"), b("value-z"))
                    .deleteRange(b("x"), null));

            assertEquals(List.of("b", "c", "z"), keys(store, null, null));
            assertArrayEquals(b("new-b"), store.get(b("b")));
        }
    }

    @EachStore
    void metadataIsWrittenWithItsBatchAndKeptApartFromData(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            assertNull(store.metadata("offset"));

            store.write(new StoreBatch().put(b("k"), b("v")).putMetadata("offset", b("41")));
            assertArrayEquals(b("41"), store.metadata("offset"));
            assertArrayEquals(b("v"), store.get(b("k")));

            store.write(new StoreBatch().putMetadata("offset", b("42")).putMetadata("epoch", b("7")));
            assertArrayEquals(b("42"), store.metadata("offset"));
            assertArrayEquals(b("7"), store.metadata("epoch"));

            store.write(new StoreBatch().putMetadata("epoch", null));
            assertNull(store.metadata("epoch"));

            assertEquals(List.of("k"), keys(store, null, null));
            assertNull(store.get(b("offset")));
        }
    }

    @EachStore
    void anIteratorSeesTheStoreAsItWasWhenMade(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            seed(store, "a", "b", "c");
            try (KeyValueIterator before = store.range(null, b("z"))) {
                store.write(new StoreBatch()
                        .deleteRange(b("b"), null)
                        .put(b("a"), b("changed"))
                        .put(b("aa"), b("added")));

                assertArrayEquals(b("value-a"), before.next().value());
                assertEquals(List.of("b", "c"), drain(before));
            }
            assertEquals(List.of("a", "aa"), keys(store, null, null));
        }
    }

    @EachStore
    void aClosedIteratorRefusesUseAndClosesIdempotently(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            KeyValueIterator iterator = seeded(store, "a").range(null, null);
            iterator.close();

            assertThrows(IllegalStateException.class, iterator::hasNext);
            assertThrows(IllegalStateException.class, iterator::next);
            assertThrows(IllegalStateException.class, iterator::peekKey);
            iterator.close();
        }
    }

    @EachStore
    void approximateEntriesTracksTheNumberOfKeys(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            assertEquals(0, store.approximateEntries());
            StoreBatch batch = new StoreBatch();
            for (int i = 0; i < 1000; i++) {
                batch.put(b("key-" + i), b("v"));
            }
            store.write(batch);

            long entries = store.approximateEntries();
            assertTrue(entries >= 900 && entries <= 1100, "estimate " + entries + " for 1000 keys");
        }
    }

    @EachStore
    void aClosedStoreRefusesUseAndClosesIdempotently(StoreFactory factory) {
        BytesStore store = factory.open(dir);
        seed(store, "a");
        store.close();

        assertThrows(IllegalStateException.class, () -> store.get(b("a")));
        assertThrows(IllegalStateException.class, () -> store.range(null, null));
        assertThrows(IllegalStateException.class, () -> store.write(new StoreBatch().put(b("b"), b("v"))));
        assertThrows(IllegalStateException.class, () -> store.metadata("offset"));
        store.close();
    }

    @EachStore
    void ingestKeepsTheLastWriteOfEachKeyAndLaterLoadsOverrideEarlierOnes(StoreFactory factory) {
        try (BytesStore store = factory.open(dir)) {
            store.ingest(List.of(
                    new StoreBatch.Put(b("b"), b("b1")),
                    new StoreBatch.Put(b("a"), b("a1")),
                    new StoreBatch.Put(b("b"), b("b2")),
                    new StoreBatch.Put(b("c"), b("c1")),
                    new StoreBatch.Put(b("c"), null),
                    new StoreBatch.Put(b("d"), null)));
            assertEquals(List.of("a", "b"), keys(store, null, null));
            assertArrayEquals(b("b2"), store.get(b("b")));

            // A second load, as the next chunk of the same changelog: it overrides the first.
            store.ingest(List.of(new StoreBatch.Put(b("a"), null), new StoreBatch.Put(b("c"), b("c2"))));
            store.endRestore();
            assertEquals(List.of("b", "c"), keys(store, null, null));
            assertArrayEquals(b("c2"), store.get(b("c")));

            // And the store goes on as usual after it.
            store.write(new StoreBatch().put(b("b"), b("b3")).deleteRange(b("c"), null));
            assertEquals(List.of("b"), keys(store, null, null));
            assertArrayEquals(b("b3"), store.get(b("b")));
        }
    }

    @EachStore
    void chunksPreparedTogetherLoadInTheOrderApplied(StoreFactory factory) throws Exception {
        try (BytesStore store = factory.open(dir)) {
            store.write(new StoreBatch().put(b("k"), b("before")));
            // Prepared at once on two threads, while the store holds data; applied in changelog order.
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<BytesStore.Ingestion> first = threads.submit(() -> store.prepareIngest(
                        List.of(new StoreBatch.Put(b("k"), b("first")), new StoreBatch.Put(b("x"), b("x1")))));
                Future<BytesStore.Ingestion> second =
                        threads.submit(() -> store.prepareIngest(List.of(new StoreBatch.Put(b("k"), b("second")))));
                assertArrayEquals(b("before"), store.get(b("k")), "preparing loads nothing");
                first.get().apply();
                assertArrayEquals(b("first"), store.get(b("k")));
                second.get().apply();
            } finally {
                threads.shutdownNow();
                assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
            }
            store.endRestore();
            assertArrayEquals(b("second"), store.get(b("k")));
            assertEquals(List.of("k", "x"), keys(store, null, null));
        }
    }

    @Test
    void aRocksDbIngestSurvivesAReopen() {
        try (BytesStore store = RocksDbBytesStore.open("ingest", dir)) {
            store.ingest(List.of(new StoreBatch.Put(b("k"), b("v1")), new StoreBatch.Put(b("k"), b("v2"))));
            store.restore(new StoreBatch().putMetadata("offset", b("7")));
            store.endRestore();
        }
        try (BytesStore store = RocksDbBytesStore.open("ingest", dir)) {
            assertArrayEquals(b("v2"), store.get(b("k")));
            assertArrayEquals(b("7"), store.metadata("offset"));
        }
    }

    static byte[] b(String text) {
        return text.getBytes(UTF_8);
    }

    /** Writes each key with the value {@code value-<key>}. */
    static void seed(BytesStore store, String... keys) {
        StoreBatch batch = new StoreBatch();
        for (String key : keys) {
            batch.put(b(key), b("value-" + key));
        }
        store.write(batch);
    }

    private static BytesStore seeded(BytesStore store, String... keys) {
        seed(store, keys);
        return store;
    }

    /** The keys of {@code store.range(from, to)}, as UTF-8 text. */
    static List<String> keys(BytesStore store, byte[] from, byte[] to) {
        try (KeyValueIterator iterator = store.range(from, to)) {
            return drain(iterator);
        }
    }

    private static List<String> drain(KeyValueIterator iterator) {
        List<String> keys = new ArrayList<>();
        iterator.forEachRemaining(entry -> keys.add(new String(entry.key(), UTF_8)));
        return keys;
    }

    private static List<String> hexKeys(KeyValueIterator iterator) {
        try (iterator) {
            List<String> keys = new ArrayList<>();
            iterator.forEachRemaining(entry -> keys.add(HexFormat.of().formatHex(entry.key())));
            return keys;
        }
    }
}
