package io.weir.streams.internals.query;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlySessionStore;
import io.weir.streams.state.StoreQuery;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of a session store query, one test per rule, on real tasks (the session window operator
 * and its in-memory stores, committed by hand) whose stores are offered to queries as the runtime offers
 * them: a key's sessions come with their windows in end order; findSessions compares the end and the
 * start, both inclusive; a merge replaces the sessions it bridged; a restoring copy fails only the reads
 * of keys no ready copy holds; a session store is read only as one, and its index not at all.
 */
class SessionQueryTest {

    private static final Topology SESSIONS = sessionCount();

    @TempDir
    Path dir;

    private final Serving serving = new Serving(TopologyAccess.spec(SESSIONS), "app", () -> false);
    private final List<TaskHarness> tasks = new ArrayList<>();

    /** Sessions of 5 s gap, counted into the in-memory store "sessions"; sessions stay an hour past their end. */
    private static Topology sessionCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(SessionWindows.withGap(Duration.ofSeconds(5)).withAllowedLateness(Duration.ofHours(1)))
                .count(Materialized.<String, Long>as("sessions").inMemory());
        return builder.build();
    }

    /** A task whose stores the serving offers to queries as partition {@code partition}. */
    private TaskHarness task(int partition, boolean ready) {
        TaskHarness task = new TaskHarness(
                SESSIONS, dir.resolve("task-" + partition), serving.local().forTask(new TaskId(0, partition)));
        if (ready) {
            task.task().stores().ready();
        }
        tasks.add(task);
        return task;
    }

    @AfterEach
    void closeTasks() {
        tasks.forEach(TaskHarness::close);
    }

    private ReadOnlySessionStore<String, Long> store() {
        return serving.store(StoreQuery.of("sessions", QueryableStoreType.sessionStore()));
    }

    private List<String> fetch(String key) {
        List<String> sessions = new ArrayList<>();
        store().fetch(key, (w, count) -> sessions.add(w.key() + "@" + w.window() + "=" + count));
        return sessions;
    }

    private List<String> find(String key, long earliestEnd, long latestStart) {
        List<String> sessions = new ArrayList<>();
        store().findSessions(key, earliestEnd, latestStart, (w, count) -> sessions.add(w.window() + "=" + count));
        return sessions;
    }

    @Test
    void aKeysSessionsAreReadWithTheirWindowsInEndOrder() {
        TaskHarness task = task(0, true);
        task.pipe("in", "a", "x", 1_000);
        task.pipe("in", "b", "x", 2_000);
        task.pipe("in", "a", "x", 3_000);
        task.pipe("in", "a", "x", 20_000);
        task.commit();
        assertEquals(List.of("a@[1000, 8000)=2", "a@[20000, 25000)=1"), fetch("a"), "[first, last + gap)");
        assertEquals(List.of("b@[2000, 7000)=1"), fetch("b"));
        assertEquals(List.of(), fetch("c"));
    }

    @Test
    void findSessionsComparesTheWindowsEndAndStartBothBoundsInclusive() {
        TaskHarness task = task(0, true);
        task.pipe("in", "a", "x", 1_000);
        task.pipe("in", "a", "x", 3_000);
        task.pipe("in", "a", "x", 20_000);
        task.commit();
        assertEquals(List.of("[1000, 8000)=2", "[20000, 25000)=1"), find("a", 8_000, 20_000), "both inclusive");
        assertEquals(List.of(), find("a", 8_001, 19_999));
        assertEquals(List.of("[20000, 25000)=1"), find("a", 8_001, 20_000));
        assertEquals(List.of("[1000, 8000)=2"), find("a", 7_999 + 1, 7_999), "the sessions containing 7999");
        assertEquals(List.of(), find("a", 8_000 + 1, 8_000), "the end is exclusive: no session contains 8000");
    }

    @Test
    void aRecordThatBridgesSessionsReplacesThemWithTheMergedSessionInOneCommit() {
        TaskHarness task = task(0, true);
        task.pipe("in", "a", "x", 1_000);
        task.pipe("in", "a", "x", 10_000);
        task.commit();
        assertEquals(List.of("a@[1000, 6000)=1", "a@[10000, 15000)=1"), fetch("a"));
        task.pipe("in", "a", "x", 5_500);
        assertEquals(List.of("a@[1000, 6000)=1", "a@[10000, 15000)=1"), fetch("a"), "the merge waits for its commit");
        task.commit();
        assertEquals(List.of("a@[1000, 15000)=3"), fetch("a"));
    }

    @Test
    void aRestoringCopyFailsOnlyTheReadsOfKeysNoReadyCopyHolds() {
        TaskHarness ready = task(0, true);
        TaskHarness restoring = task(1, false);
        ready.pipe("in", "a", "x", 1_000);
        restoring.pipe("in", "b", "x", 1_000);
        ready.commit();
        restoring.commit();
        assertEquals(List.of("a@[1000, 6000)=1"), fetch("a"));
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> fetch("b")).reason());
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> find("b", 0, 10_000))
                        .reason());
        restoring.task().stores().ready();
        assertEquals(List.of("b@[1000, 6000)=1"), fetch("b"));
    }

    @Test
    void aSessionStoreIsReadOnlyAsASessionStoreAndItsIndexNotAtAll() {
        IllegalArgumentException asWindows = assertThrows(
                IllegalArgumentException.class,
                () -> serving.store(StoreQuery.of("sessions", QueryableStoreType.windowStore())));
        assertTrue(
                asWindows.getMessage().contains("'sessions' is a session store, not a window store"),
                asWindows.getMessage());
        assertTrue(asWindows.getMessage().contains("QueryableStoreType.sessionStore()"), asWindows.getMessage());
        IllegalArgumentException index = assertThrows(
                IllegalArgumentException.class,
                () -> serving.store(StoreQuery.of("sessions-sessions", QueryableStoreType.sessionStore())));
        assertTrue(index.getMessage().contains("internal store"), index.getMessage());
        assertTrue(index.getMessage().contains("[sessions (session store)]"), index.getMessage());
    }
}
