package io.weir.streams.internals.task;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.state.StoreException;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.serde.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stores found in the state directory at start are opened in the background and handed to their tasks. */
class PreopenedStoresTest {

    private static final String THREAD = "test-store-opener";
    private static final byte[] KEY = "k".getBytes(UTF_8);
    private static final byte[] VALUE = "v".getBytes(UTF_8);

    @TempDir
    Path appDir;

    private static TopologySpec topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return TopologyAccess.spec(builder.build());
    }

    /** A store closed with one entry, as a previous run of the instance leaves it. */
    private Path storeOnDisk(String task) {
        Path dir = appDir.resolve(task).resolve("counts");
        try (RocksDbBytesStore store = RocksDbBytesStore.open("counts", dir)) {
            store.write(new StoreBatch().put(KEY, VALUE));
        }
        return dir;
    }

    /** Whether something in this JVM holds the store open: RocksDB then refuses to open it again. */
    private static boolean heldOpen(Path dir) {
        RocksDbBytesStore store;
        try {
            store = RocksDbBytesStore.open("counts", dir);
        } catch (StoreException e) {
            return true;
        }
        store.close();
        return false;
    }

    private static boolean openerThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(THREAD));
    }

    @Test
    void aStoreFoundAtStartIsOpenedBeforeItsTaskAsksAndHandedToIt() {
        Path dir = storeOnDisk("0_3");
        try (PreopenedStores preopened = new PreopenedStores(appDir, topology(), THREAD, RocksDbResources.unshared())) {
            preopened.begin();
            await().atMost(Duration.ofSeconds(10)).until(() -> heldOpen(dir));
            try (RocksDbBytesStore store = preopened.open("counts", dir)) {
                assertArrayEquals(VALUE, store.get(KEY), "the task gets the store with what it held");
            }
            assertFalse(heldOpen(dir), "the task's close closed the store the background opened");
        }
        assertFalse(openerThreadAlive(), "close ends the background thread");
    }

    @Test
    void storesNoTaskTookAreClosedOnceReleased() {
        Path taken = storeOnDisk("0_0");
        Path left = storeOnDisk("0_1");
        PreopenedStores preopened = new PreopenedStores(appDir, topology(), THREAD, RocksDbResources.unshared());
        preopened.begin();
        RocksDbBytesStore store = preopened.open("counts", taken);
        await().atMost(Duration.ofSeconds(10)).until(() -> heldOpen(left));
        preopened.release();
        assertTrue(preopened.close(Duration.ofSeconds(10)), "the stores left were closed in time");
        assertFalse(heldOpen(left), "a store no task took is closed");
        assertTrue(heldOpen(taken), "a store a task took stays open: the task owns it");
        store.close();
        assertFalse(openerThreadAlive());
    }

    @Test
    void aStoreNotFoundAtStartOrAskedForAfterReleaseIsOpenedDirectly() {
        PreopenedStores preopened = new PreopenedStores(appDir, topology(), THREAD, RocksDbResources.unshared());
        preopened.begin();
        assertFalse(openerThreadAlive(), "nothing on disk: no background thread");
        Path fresh = appDir.resolve("0_2").resolve("counts");
        try (RocksDbBytesStore store = preopened.open("counts", fresh)) {
            store.write(new StoreBatch().put(KEY, VALUE));
        }
        preopened.release();
        try (RocksDbBytesStore store = preopened.open("counts", fresh)) {
            assertArrayEquals(VALUE, store.get(KEY));
        }
        assertTrue(preopened.close(Duration.ofSeconds(10)));
    }

    @Test
    void onlyTheTopologysRocksDbStoresInItsTaskDirectoriesAreOpened() throws Exception {
        // A global table's directory, a store this topology does not have, and a store directory
        // RocksDB never made a database in.
        Path foreign = appDir.resolve("global").resolve("counts");
        try (RocksDbBytesStore store = RocksDbBytesStore.open("counts", foreign)) {
            store.write(new StoreBatch().put(KEY, VALUE));
        }
        Path otherStore = appDir.resolve("0_0").resolve("other");
        try (RocksDbBytesStore store = RocksDbBytesStore.open("other", otherStore)) {
            store.write(new StoreBatch().put(KEY, VALUE));
        }
        Files.createDirectories(appDir.resolve("0_1").resolve("counts"));
        try (PreopenedStores preopened = new PreopenedStores(appDir, topology(), THREAD, RocksDbResources.unshared())) {
            preopened.begin();
            assertFalse(openerThreadAlive(), "nothing of the topology's to open");
            assertFalse(heldOpen(foreign));
            assertFalse(heldOpen(otherStore));
        }
    }
}
