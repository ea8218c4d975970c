package io.weir.streams.internals.query;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GlobalWindows;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyWindowStore;
import io.weir.streams.state.StoreQuery;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of a window store query, one test per rule, on real tasks (the window operator and its
 * in-memory stores, committed by hand) whose stores are offered to queries as the runtime offers them:
 * a window is found by key and start; time bounds are window starts, both inclusive; scans merge the
 * copies in start order, then key order; only committed state is read; a restoring copy fails only the
 * reads it could answer; every window kind, and a keyed processor's window store, reads by start; a
 * window store is refused as another kind, naming its own.
 */
class WindowQueryTest {

    @TempDir
    Path dir;

    private final Map<Integer, TaskHarness> tasks = new HashMap<>();

    /** A count per key in {@code windows} into the in-memory window store "counts". */
    private static Topology count(Windows windows) {
        StreamsBuilder builder = new StreamsBuilder();
        var windowed = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(windows);
        (windows instanceof GlobalWindows ? windowed.withTrigger(Trigger.afterCount(1)) : windowed)
                .count(Materialized.<String, Long>as("counts").inMemory());
        return builder.build();
    }

    private static Topology tumbling() {
        return count(TumblingWindows.of(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofHours(1)));
    }

    /** What an instance running {@code topology} answers queries with; its tasks offer their stores to it. */
    private static Serving serving(Topology topology) {
        return new Serving(TopologyAccess.spec(topology), "app", () -> false);
    }

    /** A task of {@code topology} whose stores {@code serving} offers to queries as partition {@code partition}. */
    private TaskHarness task(Serving serving, Topology topology, int partition, boolean ready) {
        TaskHarness task = new TaskHarness(
                topology, dir.resolve("task-" + partition), serving.local().forTask(new TaskId(0, partition)));
        if (ready) {
            task.task().stores().ready();
        }
        tasks.put(partition, task);
        return task;
    }

    private static List<String> fetch(ReadOnlyWindowStore<String, Long> store, String key, long from, long to) {
        List<String> windows = new ArrayList<>();
        store.fetch(key, from, to, (w, count) -> windows.add(format(w, count)));
        return windows;
    }

    private static String format(Windowed<String> window, Long count) {
        return window.key() + "@" + window.window() + "=" + count;
    }

    @AfterEach
    void closeTasks() {
        tasks.values().forEach(TaskHarness::close);
    }

    @Test
    void aWindowIsReadByItsKeyAndStartAndAWindowNoKeyHasIsNull() {
        Topology topology = tumbling();
        Serving serving = serving(topology);
        TaskHarness task = task(serving, topology, 0, true);
        task.pipe("in", "a", "x", 1_000);
        task.pipe("in", "a", "x", 2_000);
        task.pipe("in", "a", "x", 15_000);
        task.pipe("in", "b", "x", 3_000);
        task.commit();
        ReadOnlyWindowStore<String, Long> store =
                serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
        assertEquals(2L, store.fetch("a", 0));
        assertEquals(1L, store.fetch("a", 10_000));
        assertEquals(1L, store.fetch("b", 0));
        assertNull(store.fetch("b", 10_000), "b has no window [10 s, 20 s)");
        assertNull(store.fetch("a", 5_000), "no window starts at 5 s");
        assertNull(store.fetch("c", 0), "no such key");
    }

    @Test
    void aKeysWindowsAreThoseStartingInTheRangeBothBoundsInclusiveInStartOrder() {
        Topology topology = count(HoppingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5))
                .withAllowedLateness(Duration.ofHours(1)));
        Serving serving = serving(topology);
        TaskHarness task = task(serving, topology, 0, true);
        task.pipe("in", "a", "x", 1_000); // [-5 s, 5 s) and [0, 10 s)
        task.pipe("in", "b", "x", 6_000); // [0, 10 s) and [5 s, 15 s), another key
        task.pipe("in", "a", "x", 7_000); // [0, 10 s) and [5 s, 15 s)
        task.pipe("in", "a", "x", 12_000); // [5 s, 15 s) and [10 s, 20 s)
        task.commit();
        ReadOnlyWindowStore<String, Long> store =
                serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
        assertEquals(
                List.of("a@[-5000, 5000)=1", "a@[0, 10000)=2", "a@[5000, 15000)=2", "a@[10000, 20000)=1"),
                fetch(store, "a", Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(List.of("a@[0, 10000)=2", "a@[5000, 15000)=2"), fetch(store, "a", 0, 5_000), "both inclusive");
        assertEquals(List.of(), fetch(store, "a", 1, 4_999), "no window of a starts in between");
        assertEquals(List.of("a@[-5000, 5000)=1"), fetch(store, "a", -5_000, -5_000));
    }

    @Test
    void everyKeysWindowsMergeAcrossTheCopiesInStartOrderThenKeyOrder() {
        Topology topology = tumbling();
        Serving serving = serving(topology);
        TaskHarness first = task(serving, topology, 0, true);
        TaskHarness second = task(serving, topology, 1, true);
        first.pipe("in", "c", "x", 1_000);
        first.pipe("in", "a", "x", 12_000);
        first.pipe("in", "a", "x", 13_000);
        second.pipe("in", "b", "x", 2_000);
        second.pipe("in", "b", "x", 22_000);
        first.commit();
        second.commit();
        ReadOnlyWindowStore<String, Long> store =
                serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
        List<String> all = new ArrayList<>();
        store.forEach((w, count) -> all.add(format(w, count)));
        assertEquals(List.of("b@[0, 10000)=1", "c@[0, 10000)=1", "a@[10000, 20000)=2", "b@[20000, 30000)=1"), all);
        List<String> some = new ArrayList<>();
        store.fetchAll(0, 10_000, (w, count) -> some.add(format(w, count)));
        assertEquals(List.of("b@[0, 10000)=1", "c@[0, 10000)=1", "a@[10000, 20000)=2"), some, "both inclusive");
        assertEquals(List.of("b@[20000, 30000)=1"), fetch(store, "b", 10_001, 20_000), "a key in the other copy");
    }

    @Test
    void onlyCommittedStateIsReadNeverAWriteWaitingForItsCommit() {
        Topology topology = tumbling();
        Serving serving = serving(topology);
        TaskHarness task = task(serving, topology, 0, true);
        task.pipe("in", "a", "x", 1_000);
        task.commit();
        task.pipe("in", "a", "x", 2_000);
        task.pipe("in", "a", "x", 11_000);
        ReadOnlyWindowStore<String, Long> store =
                serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
        assertEquals(1L, store.fetch("a", 0), "the second record waits in the cache for its commit");
        assertEquals(List.of("a@[0, 10000)=1"), fetch(store, "a", 0, 10_000));
        task.commit();
        assertEquals(2L, store.fetch("a", 0));
        assertEquals(List.of("a@[0, 10000)=2", "a@[10000, 20000)=1"), fetch(store, "a", 0, 10_000));
    }

    @Test
    void aRestoringCopyFailsTheReadsOfKeysNoReadyCopyHoldsAndEveryScanOfAllKeys() {
        Topology topology = tumbling();
        Serving serving = serving(topology);
        TaskHarness ready = task(serving, topology, 0, true);
        TaskHarness restoring = task(serving, topology, 1, false);
        ready.pipe("in", "a", "x", 1_000);
        restoring.pipe("in", "b", "x", 1_000);
        ready.commit();
        restoring.commit();
        ReadOnlyWindowStore<String, Long> store =
                serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
        assertEquals(1L, store.fetch("a", 0));
        assertEquals(List.of("a@[0, 10000)=1"), fetch(store, "a", 0, 0));
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> store.fetch("b", 0))
                        .reason());
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> fetch(store, "b", 0, 0))
                        .reason());
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> store.forEach((w, c) -> {}))
                        .reason(),
                "a scan without the restoring copy's part would be wrong");
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> store.fetchAll(0, 0, (w, c) -> {}))
                        .reason());
        restoring.task().stores().ready();
        assertEquals(1L, store.fetch("b", 0));
    }

    @Test
    void aWindowOfEveryKindIsFoundByItsStart() {
        Map<Windows, Long> starts = Map.of(
                TumblingWindows.of(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofHours(1)), 20_000L,
                HoppingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5))
                                .withAllowedLateness(Duration.ofHours(1)),
                        15_000L,
                // The left window of the record at 21 s: [11 s, 21.001 s), holding both records.
                SlidingWindows.ofTimeDifference(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofHours(1)),
                        11_000L,
                GlobalWindows.create(), Long.MIN_VALUE);
        starts.forEach((windows, start) -> {
            Topology topology = count(windows);
            Serving serving = serving(topology);
            TaskHarness task = task(serving, topology, 0, true);
            task.pipe("in", "a", "x", 20_000);
            task.pipe("in", "a", "x", 21_000);
            task.commit();
            ReadOnlyWindowStore<String, Long> store =
                    serving.store(StoreQuery.of("counts", QueryableStoreType.windowStore()));
            assertEquals(2L, store.fetch("a", start), windows.toString());
            List<Long> found = new ArrayList<>();
            store.fetch("a", start, start, (w, count) -> found.add(w.window().start()));
            assertEquals(List.of(start), found, windows.toString());
            task.close();
            tasks.remove(0);
        });
    }

    /** Keeps each value in the window store "recent" at its record's event time. */
    static final class Recent implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            ctx.<String, String>windowStore("recent").put(key, value, ctx.eventTime());
        }
    }

    @Test
    void aKeyedProcessorsWindowStoreReadsEachEntryAsTheWindowOfItsMillisecond() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .process(
                        Recent::new,
                        Materialized.<String, String>as("recent")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String())
                                .withRetention(Duration.ofHours(1))
                                .inMemory());
        Topology topology = builder.build();
        Serving serving = serving(topology);
        TaskHarness task = task(serving, topology, 0, true);
        task.pipe("in", "a", "first", 1_000);
        task.pipe("in", "a", "second", 1_001);
        task.pipe("in", "b", "other", 1_000);
        task.commit();
        ReadOnlyWindowStore<String, String> store =
                serving.store(StoreQuery.of("recent", QueryableStoreType.windowStore()));
        assertEquals("first", store.fetch("a", 1_000));
        assertEquals("second", store.fetch("a", 1_001));
        assertNull(store.fetch("a", 999));
        List<String> entries = new ArrayList<>();
        store.fetch("a", 1_000, 1_001, (w, v) -> entries.add(w.window() + "=" + v));
        assertEquals(List.of("[1000, 1001)=first", "[1001, 1002)=second"), entries);
        List<String> all = new ArrayList<>();
        store.fetchAll(1_000, 1_000, (w, v) -> all.add(w.key() + "=" + v));
        assertEquals(List.of("a=first", "b=other"), all);
    }

    @Test
    void aWindowStoreAskedForAsAnotherKindIsRefusedNamingItsKind() {
        Serving serving = serving(tumbling());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> serving.store(StoreQuery.of("counts", QueryableStoreType.keyValueStore())));
        assertTrue(e.getMessage().contains("'counts' is a window store, not a key-value store"), e.getMessage());
        assertTrue(e.getMessage().contains("QueryableStoreType.windowStore()"), e.getMessage());
        IllegalArgumentException unknown = assertThrows(
                IllegalArgumentException.class,
                () -> serving.store(StoreQuery.of("count", QueryableStoreType.windowStore())));
        assertTrue(unknown.getMessage().contains("[counts (window store)]"), unknown.getMessage());
    }
}
