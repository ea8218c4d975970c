package io.weir.streams.internals.state;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.streams.state.RocksDbConfigSetter;
import io.weir.streams.state.RocksDbStoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.InfoLogLevel;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an instance's RocksDB stores share: the memory bound (one block cache, memtables charged to it)
 * and the user's options hook. One rule per test, on real RocksDB.
 */
class RocksDbResourcesTest {

    private static final long MIB = 1024 * 1024;

    @TempDir
    Path dir;

    @Test
    void theMemtablesOfEveryStoreAreChargedToTheOneBoundedCache() {
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.of(64 * MIB), 0.5, null)) {
            List<RocksDbBytesStore> stores = new ArrayList<>();
            try {
                for (int s = 0; s < 4; s++) {
                    stores.add(shared.open("s" + s, dir.resolve("s" + s)));
                }
                long before = shared.usedBytes();
                stores.forEach(store -> write(store, 1_000, 1_000));

                assertTrue(
                        shared.usedBytes() - before >= 3 * MIB,
                        "four stores' memtables (4 MB written) are charged to the one cache: " + before + " -> "
                                + shared.usedBytes());
            } finally {
                stores.forEach(RocksDbBytesStore::close);
            }
        }
    }

    /**
     * RocksDB's write buffer manager flushes only the store being written: stores gone quiet keep their
     * memtables and the cache stays over its bound, which is why the stream thread flushes them
     * (TaskManager#keepRocksDbWithinBound); once flushed, the instance is within its bound again.
     */
    @Test
    void quietStoresKeepTheCacheOverItsBoundUntilTheirMemtablesAreFlushed() {
        long bound = 16 * MIB;
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.of(bound), 0.5, null)) {
            List<RocksDbBytesStore> stores = new ArrayList<>();
            try {
                for (int s = 0; s < 20; s++) {
                    stores.add(shared.open("s" + s, dir.resolve("s" + s)));
                }
                // 20 stores of 2 MB each, then quiet: unbounded, their 16 MiB memtables would hold all 40 MB.
                for (int round = 0; round < 2; round++) {
                    stores.forEach(store -> write(store, 1_000, 1_000));
                }
                assertTrue(shared.memoryOverBound(), "quiet memtables hold " + shared.usedBytes() + " of " + bound);

                for (RocksDbBytesStore store : stores) {
                    store.flushMemtables();
                }

                assertFalse(shared.memoryOverBound(), "used " + shared.usedBytes() + " of " + bound);
                assertArrayEquals(value(7, 1_000), stores.get(19).get(key(7)), "flushed data is read back");
            } finally {
                stores.forEach(RocksDbBytesStore::close);
            }
        }
    }

    @Test
    void withoutABoundNothingIsSharedOrCounted() {
        RocksDbResources unshared = RocksDbResources.unshared();
        assertEquals(-1, unshared.boundBytes());
        try (RocksDbBytesStore store = unshared.open("s", dir.resolve("s"))) {
            write(store, 1_000, 1_000);
            assertTrue(store.memtableBytes() > 1_000_000, "the store's own memtable holds the writes");
            assertEquals(0, unshared.usedBytes());
            assertFalse(unshared.memoryOverBound());
        }
    }

    @Test
    void theResourcesCountTheStoresOpenWithThem() {
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.empty(), 0.5, null)) {
            RocksDbBytesStore first = shared.open("a", dir.resolve("a"));
            try (RocksDbBytesStore second = shared.open("b", dir.resolve("b"))) {
                assertEquals(2, shared.openStores());
                first.close();
                first.close();
                assertEquals(1, shared.openStores(), "closing twice counts once");
                assertTrue(second.approximateBytes() >= 0);
            }
            assertEquals(0, shared.openStores());
        }
    }

    /** RocksDB's log goes to slf4j: no LOG file (its writer and handle) in each store's directory. */
    @Test
    void aStoreKeepsNoLogFileOfItsOwn() throws Exception {
        try (RocksDbBytesStore store = RocksDbResources.unshared().open("s", dir.resolve("s"))) {
            write(store, 1_000, 100);
            store.flush();
        }
        try (Stream<Path> files = Files.list(dir.resolve("s"))) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertTrue(names.stream().anyMatch(n -> n.endsWith(".sst")), "the store flushed: " + names);
            assertTrue(names.stream().noneMatch(n -> n.startsWith("LOG")), "no RocksDB LOG file: " + names);
        }
    }

    /**
     * RocksDB's warnings and errors reach the application's log; its chatter is TRACE. (Which levels RocksDB
     * formats at all is fixed when the logger loads; this calls the logger directly.)
     */
    @Test
    void rocksDbWarningsAndErrorsReachTheApplicationLogAndItsChatterIsTrace() {
        Logger logger = (Logger) LoggerFactory.getLogger(RocksDbLogger.NAME);
        Level level = logger.getLevel();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        logger.setLevel(Level.TRACE);
        try {
            RocksDbLogger rocksDb = RocksDbLogger.instance();
            rocksDb.log(InfoLogLevel.WARN_LEVEL, "Stopping writes because we have 3 immutable memtables\n");
            rocksDb.log(InfoLogLevel.ERROR_LEVEL, "background error");
            rocksDb.log(InfoLogLevel.FATAL_LEVEL, "fatal");
            rocksDb.log(InfoLogLevel.INFO_LEVEL, "Options.write_buffer_size: 16777216");
            rocksDb.log(InfoLogLevel.HEADER_LEVEL, "RocksDB version: 10.1.3");
            rocksDb.log(InfoLogLevel.DEBUG_LEVEL, "debug");

            assertEquals(
                    List.of(
                            "WARN Stopping writes because we have 3 immutable memtables",
                            "ERROR background error",
                            "ERROR fatal",
                            "TRACE Options.write_buffer_size: 16777216",
                            "TRACE RocksDB version: 10.1.3",
                            "TRACE debug"),
                    lines.list.stream()
                            .map(e -> e.getLevel() + " " + e.getFormattedMessage())
                            .toList());
        } finally {
            logger.setLevel(level);
            logger.detachAppender(lines);
        }
    }

    @Test
    void aSetterChangesTheOptionsExceptThoseTheGuaranteesRestOn() {
        Recording setter = new Recording();
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.of(8 * MIB), 0.5, setter)) {
            RocksDbOptions options = shared.optionsFor("counts");
            try {
                assertEquals(List.of("counts"), setter.configured);
                assertTrue(setter.sawSharedCache, "the setter is handed the shared cache and manager");
                assertEquals(2, options.columnFamily().maxWriteBufferNumber(), "the setter's own choice stays");
                assertTrue(options.db().atomicFlush(), "atomic flush is set again after the setter");
                assertTrue(options.db().createMissingColumnFamilies(), "so are the column families");
            } finally {
                options.close();
            }
        }
    }

    @Test
    void aSetterThatThrowsFailsTheStoreNamingTheSetterAndTheStore() {
        RocksDbConfigSetter failing = options -> {
            throw new IllegalArgumentException("no such option");
        };
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.empty(), 0.5, failing)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> shared.optionsFor("counts"));
            assertTrue(e.getMessage().contains("store counts"), e.getMessage());
            assertTrue(e.getMessage().contains("no such option"), e.getMessage());
            assertTrue(e.getMessage().contains("rocksdb.config.setter"), e.getMessage());
        }
    }

    @Test
    void aSettersCloseRunsOnceItsStoreHasClosed() {
        Recording setter = new Recording();
        try (RocksDbResources shared = RocksDbResources.of(OptionalLong.empty(), 0.5, setter)) {
            RocksDbBytesStore store = shared.open("counts", dir.resolve("counts"));
            write(store, 10, 10);
            assertEquals(List.of(), setter.closed);

            store.close();

            assertEquals(List.of("counts"), setter.closed);
            try (RocksDbBytesStore reopened = shared.open("counts", dir.resolve("counts"))) {
                assertArrayEquals(
                        value(3, 10), reopened.get(key(3)), "a store opened through the setter keeps its data");
            }
        }
    }

    /** A setter that turns off what Weir needs and records what it is called with. */
    private static final class Recording implements RocksDbConfigSetter {
        final List<String> configured = new CopyOnWriteArrayList<>();
        final List<String> closed = new CopyOnWriteArrayList<>();
        volatile boolean sawSharedCache;

        @Override
        public void setConfig(RocksDbStoreOptions options) {
            configured.add(options.storeName());
            sawSharedCache = options.sharedCache().isPresent()
                    && options.writeBufferManager().isPresent();
            options.columnFamilyOptions().setMaxWriteBufferNumber(2);
            options.dbOptions().setAtomicFlush(false).setCreateMissingColumnFamilies(false);
        }

        @Override
        public void close(String storeName, RocksDbStoreOptions options) {
            closed.add(storeName);
        }
    }

    private static void write(BytesStore store, int entries, int valueBytes) {
        StoreBatch batch = new StoreBatch();
        for (int i = 0; i < entries; i++) {
            batch.put(key(i), value(i, valueBytes));
        }
        store.write(batch);
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, int bytes) {
        byte[] value = new byte[bytes];
        value[0] = (byte) i;
        value[bytes - 1] = (byte) (i >> 8);
        return value;
    }
}
