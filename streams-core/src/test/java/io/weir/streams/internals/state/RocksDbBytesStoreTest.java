package io.weir.streams.internals.state;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.weir.streams.internals.state.BytesStoreContractTest.b;
import static io.weir.streams.internals.state.BytesStoreContractTest.keys;
import static io.weir.streams.internals.state.BytesStoreContractTest.seed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What only the RocksDB store promises: persistence, native resource handling, directory ownership. */
class RocksDbBytesStoreTest {

    @TempDir
    Path dir;

    @Test
    void dataAndMetadataSurviveCloseAndReopen() {
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", dir)) {
            seed(store, "a", "b", "c");
            store.write(new StoreBatch()
                    .deleteRange(b("b"), null)
                    .put(b("d"), b("value-d"))
                    .putMetadata("offset", b("17")));
        }
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", dir)) {
            assertEquals(List.of("a", "d"), keys(store, null, null));
            assertArrayEquals(b("value-d"), store.get(b("d")));
            assertArrayEquals(b("17"), store.metadata("offset"));
        }
    }

    @Test
    void getReadsFromTheMemtablesAndFromDiskAlike() {
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", dir)) {
            store.write(new StoreBatch()
                    .put(b("on-disk"), b("v1"))
                    .put(b("empty-on-disk"), new byte[0])
                    .put(b("deleted-on-disk"), b("v2"))
                    .put(b("range-deleted-on-disk"), b("v3")));
            store.flush();
        }
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", dir)) {
            store.write(new StoreBatch()
                    .put(b("in-memtable"), b("v4"))
                    .put(b("empty-in-memtable"), new byte[0])
                    .delete(b("deleted-on-disk"))
                    .deleteRange(b("range-deleted-on-disk"), b("range-deleted-on-disk0")));

            assertArrayEquals(b("v1"), store.get(b("on-disk")));
            assertArrayEquals(new byte[0], store.get(b("empty-on-disk")));
            assertArrayEquals(b("v4"), store.get(b("in-memtable")));
            assertArrayEquals(new byte[0], store.get(b("empty-in-memtable")));
            assertNull(store.get(b("deleted-on-disk")));
            assertNull(store.get(b("range-deleted-on-disk")));
            assertNull(store.get(b("never-written")));
        }
    }

    @Test
    void aKilledProcessKeepsEveryWrittenBatchWithItsMetadata() throws Exception {
        Path storeDir = crashAfter(CrashingWriter.Mode.FLUSH_THEN_WRITE);

        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", storeDir)) {
            assertEquals(List.of("flushed", "unflushed"), keys(store, null, null));
            assertArrayEquals(b("2"), store.metadata("offset"));
        }
    }

    @Test
    void aKilledProcessKeepsBatchesInFlushedAndUnflushedMemtablesAlike() throws Exception {
        Path storeDir = crashAfter(CrashingWriter.Mode.FILL_MEMTABLES);

        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", storeDir)) {
            assertArrayEquals(b(Integer.toString(CrashingWriter.FILL_BATCHES)), store.metadata("offset"));
            assertEquals(
                    IntStream.rangeClosed(1, CrashingWriter.FILL_BATCHES)
                            .mapToObj(CrashingWriter::key)
                            .toList(),
                    keys(store, null, null));
        }
    }

    @Test
    void restoredBatchesAreDurableOnceTheRestoreEnds() throws Exception {
        Path storeDir = crashAfter(CrashingWriter.Mode.RESTORE_THEN_WRITE);

        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", storeDir)) {
            assertEquals(List.of("restored", "written"), keys(store, null, null));
            assertArrayEquals(b("2"), store.metadata("offset"));
        }
    }

    @Test
    void aCrashMidRestoreLeavesTheStoreAtItsLastDurableBatch() throws Exception {
        Path storeDir = crashAfter(CrashingWriter.Mode.CRASH_MID_RESTORE);

        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", storeDir)) {
            assertEquals(List.of("written"), keys(store, null, null));
            assertArrayEquals(b("1"), store.metadata("offset"));
        }
    }

    /**
     * A machine crash can lose the unsynced end of the write-ahead log, tearing the last batch:
     * recovery stops before it, and the store is whole batches with the metadata written with them.
     */
    @Test
    void aTornWriteAheadLogRecoversWholeBatchesUpToTheDamage() throws Exception {
        Path storeDir = crashAfter(CrashingWriter.Mode.FILL_MEMTABLES);
        Path newestLog;
        try (Stream<Path> files = Files.list(storeDir)) {
            newestLog = files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .max(Comparator.comparing(f -> f.getFileName().toString()))
                    .orElseThrow();
        }
        try (FileChannel log = FileChannel.open(newestLog, StandardOpenOption.WRITE)) {
            log.truncate(log.size() - 100_000);
        }

        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", storeDir)) {
            byte[] offset = store.metadata("offset");
            assertTrue(offset != null, "nothing recovered");
            int lastBatch = Integer.parseInt(new String(offset, StandardCharsets.UTF_8));
            assertTrue(
                    lastBatch < CrashingWriter.FILL_BATCHES,
                    "the torn batch " + CrashingWriter.FILL_BATCHES + " survived");
            assertEquals(
                    IntStream.rangeClosed(1, lastBatch)
                            .mapToObj(CrashingWriter::key)
                            .toList(),
                    keys(store, null, null));
        }
    }

    /** Runs a {@link CrashingWriter} in a child JVM until it halts; returns its store's directory. */
    private Path crashAfter(CrashingWriter.Mode mode) throws Exception {
        Path storeDir = dir.resolve("store");
        Path writerOutput = dir.resolve("writer.out");
        Process writer = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashingWriter.class.getName(),
                        storeDir.toString(),
                        mode.name())
                .redirectErrorStream(true)
                .redirectOutput(writerOutput.toFile())
                .start();
        if (!writer.waitFor(60, TimeUnit.SECONDS)) {
            writer.destroyForcibly();
            fail("the writer did not finish: " + readQuietly(writerOutput));
        }
        assertEquals(
                CrashingWriter.HALT_STATUS,
                writer.exitValue(),
                () -> "the writer failed before halting: " + readQuietly(writerOutput));
        return storeDir;
    }

    @Test
    void closeIsIdempotentAndReleasesTheDirectory() {
        RocksDbBytesStore store = RocksDbBytesStore.open("s", dir);
        assertThrows(
                StoreException.class,
                () -> RocksDbBytesStore.open("again", dir),
                "RocksDB locks an open store's directory");
        store.close();
        store.close();

        try (RocksDbBytesStore reopened = RocksDbBytesStore.open("s", dir)) {
            assertNull(reopened.get(b("a")));
        }
    }

    @Test
    void closingWithAnOpenIteratorClosesTheIterator() {
        RocksDbBytesStore store = RocksDbBytesStore.open("s", dir);
        seed(store, "a", "b");
        KeyValueIterator iterator = store.range(null, null);
        iterator.next();

        store.close();

        assertThrows(IllegalStateException.class, iterator::hasNext);
        assertThrows(IllegalStateException.class, iterator::next);
        iterator.close();
        try (RocksDbBytesStore reopened = RocksDbBytesStore.open("s", dir)) {
            assertEquals(List.of("a", "b"), keys(reopened, null, null));
        }
    }

    @Test
    void storesInDifferentDirectoriesAreIndependent() {
        try (RocksDbBytesStore second = RocksDbBytesStore.open("second", dir.resolve("second"))) {
            try (RocksDbBytesStore first = RocksDbBytesStore.open("first", dir.resolve("first"))) {
                first.write(new StoreBatch().put(b("k"), b("first")).putMetadata("offset", b("1")));
                second.write(new StoreBatch().put(b("k"), b("second")).put(b("only-second"), b("v")));
                first.write(new StoreBatch().deleteRange(null, null));

                assertEquals(List.of(), keys(first, null, null));
                assertEquals(List.of("k", "only-second"), keys(second, null, null));
                assertNull(second.metadata("offset"));
            }
            assertArrayEquals(b("second"), second.get(b("k")), "closing one store changed the other");
        }
    }

    @Test
    void openCreatesMissingDirectories() {
        Path nested = dir.resolve("task-0_1").resolve("store");
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", nested)) {
            seed(store, "a");
            store.flush();
        }
        assertTrue(Files.isRegularFile(nested.resolve("CURRENT")), "no database in " + nested);
    }

    @Test
    void openFailsCleanlyWhenThePathIsAFile() throws IOException {
        Path file = Files.createFile(dir.resolve("not-a-directory"));

        assertThrows(StoreException.class, () -> RocksDbBytesStore.open("s", file));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /**
     * Runs in a child JVM: writes batches with an {@code offset} metadata entry each, then halts as a
     * crash would, with no shutdown hook or close.
     */
    static final class CrashingWriter {

        static final int HALT_STATUS = 42;

        enum Mode {
            /** One batch flushed explicitly, then one that only reaches the memtables and the log. */
            FLUSH_THEN_WRITE,
            /**
             * 1 MiB batches past three full 16 MiB memtables: RocksDB stalls writes at three unflushed
             * memtables, so at least one automatic flush has completed before the last write returns;
             * the last batches are only in memtables and the log.
             */
            FILL_MEMTABLES,
            /** A restored batch, the end of the restore, then a written batch. */
            RESTORE_THEN_WRITE,
            /** A written batch, then a restored one, and no end of the restore. */
            CRASH_MID_RESTORE
        }

        static final int FILL_BATCHES = 64;

        static String key(int batch) {
            return String.format("k-%03d", batch);
        }

        public static void main(String[] args) {
            RocksDbBytesStore store = RocksDbBytesStore.open("s", Path.of(args[0]));
            switch (Mode.valueOf(args[1])) {
                case FLUSH_THEN_WRITE -> {
                    store.write(new StoreBatch().put(b("flushed"), b("v")).putMetadata("offset", b("1")));
                    store.flush();
                    store.write(new StoreBatch().put(b("unflushed"), b("v")).putMetadata("offset", b("2")));
                }
                case RESTORE_THEN_WRITE -> {
                    store.restore(new StoreBatch().put(b("restored"), b("v")).putMetadata("offset", b("1")));
                    store.endRestore();
                    store.write(new StoreBatch().put(b("written"), b("v")).putMetadata("offset", b("2")));
                }
                case CRASH_MID_RESTORE -> {
                    store.write(new StoreBatch().put(b("written"), b("v")).putMetadata("offset", b("1")));
                    store.restore(new StoreBatch().put(b("restored"), b("v")).putMetadata("offset", b("2")));
                }
                case FILL_MEMTABLES -> {
                    byte[] value = new byte[1024 * 1024];
                    for (int batch = 1; batch <= FILL_BATCHES; batch++) {
                        store.write(new StoreBatch()
                                .put(b(key(batch)), value)
                                .putMetadata("offset", b(Integer.toString(batch))));
                    }
                }
            }
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
