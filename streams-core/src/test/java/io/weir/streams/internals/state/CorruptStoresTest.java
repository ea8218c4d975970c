package io.weir.streams.internals.state;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.StoreType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A RocksDB store whose files are damaged is rebuilt when it has a changelog, and named when it has none. */
class CorruptStoresTest {

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A store "s" of task directory {@code taskDir} holding one entry, closed, then its manifest overwritten. */
    private static void corruptStore(Path taskDir) throws IOException {
        try (RocksDbBytesStore store = RocksDbBytesStore.open("s", taskDir.resolve("s"))) {
            store.write(new StoreBatch()
                    .put(utf8("k"), utf8("v"))
                    .putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(7)));
        }
        try (Stream<Path> files = Files.list(taskDir.resolve("s"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("MANIFEST-"))
                    .toList()) {
                Files.write(f, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
            }
        }
    }

    private static TaskStores stores(Path taskDir, boolean logged) {
        return new TaskStores(
                List.of(new StoreSpec("s", StoreType.ROCKSDB, logged, -1)),
                taskDir,
                new CacheBudget(1024 * 1024),
                Map.of(),
                null,
                RocksDbResources.unshared());
    }

    @Test
    void aCorruptStoreWithAChangelogIsMovedAsideAndOpenedEmptyForTheRestoreCountedAsARebuild() throws IOException {
        Path taskDir = dir.resolve("0_0");
        corruptStore(taskDir);
        assertThrows(
                StoreException.class,
                () -> RocksDbBytesStore.open("s", taskDir.resolve("s")).close(),
                "the manifest is damaged");
        try (TaskStores stores = stores(taskDir, true)) {
            BytesStore store = stores.cache("s").store();
            assertNull(store.get(utf8("k")), "empty: the restore rebuilds it");
            assertNull(ChangelogOffset.of(store), "from the start of its changelog");
            TaskMetrics metrics = new TaskMetrics("0_0");
            stores.cache("s").reportTo("s", metrics);
            assertEquals(1L, metrics.snapshot().get("s/" + WeirMetrics.STORE_REBUILDS));
        }
        try (Stream<Path> left = Files.list(taskDir)) {
            assertTrue(left.anyMatch(p -> p.getFileName().toString().startsWith("s.corrupt-")), "kept aside");
        }
    }

    @Test
    void aCorruptStoreWithoutAChangelogFailsNamingItAndWhatToDo() throws IOException {
        Path taskDir = dir.resolve("0_1");
        corruptStore(taskDir);
        StoreException e =
                assertThrows(StoreException.class, () -> stores(taskDir, false).close());
        assertTrue(e.getMessage().contains("Store s in " + taskDir.resolve("s")), e.getMessage());
        assertTrue(
                e.getMessage().contains("no changelog") && e.getMessage().contains("move or delete"), e.getMessage());
    }
}
