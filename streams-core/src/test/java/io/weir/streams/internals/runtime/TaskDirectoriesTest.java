package io.weir.streams.internals.runtime;

import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.topology.TaskId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link TaskDirectories}, one test each, on a temporary directory and a hand-moved clock. */
class TaskDirectoriesTest {

    private static final long DELAY = 1_000;
    private static final TaskId T0 = new TaskId(0, 0);
    private static final TaskId T1 = new TaskId(0, 1);

    private final AtomicLong clock = new AtomicLong(10_000);
    private final AtomicBoolean settled = new AtomicBoolean(true);
    private final List<String> forgotten = new ArrayList<>();
    private final Counter deleted = new Counter();

    private TaskDirectories directories(Path appDir, int subtopologies) {
        return new TaskDirectories(appDir, subtopologies, DELAY, settled::get, forgotten::add, deleted, clock::get);
    }

    private static Path taskDir(Path appDir, String name) throws IOException {
        Path store = Files.createDirectories(appDir.resolve(name).resolve("counts"));
        Files.writeString(store.resolve("CURRENT"), "MANIFEST-000001\n");
        return appDir.resolve(name);
    }

    private static List<String> entries(Path appDir) throws IOException {
        try (Stream<Path> s = Files.list(appDir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aDirectoryHeldByAThreadIsKeptHoweverLong(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.claim("thread-0", Set.of(T0));
        dirs.hold("thread-0", Set.of(T0));
        clock.addAndGet(100 * DELAY);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_0")));
        assertEquals(0, deleted.value());
    }

    @Test
    void aDirectoryNoThreadHoldsIsDeletedOnceUnusedForTheDelayAndForgotten(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        taskDir(appDir, "0_1");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.claim("thread-0", Set.of(T0, T1));
        dirs.hold("thread-0", Set.of(T0, T1));
        clock.addAndGet(5 * DELAY);
        dirs.hold("thread-0", Set.of(T0)); // 0_1 moved away: unused from now
        clock.addAndGet(DELAY - 1);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_1")), "not yet unused for the delay");
        clock.addAndGet(TaskDirectories.scanIntervalMs(DELAY));
        dirs.maybeClean(clock.get());
        assertEquals(List.of("0_0"), entries(appDir));
        assertEquals(List.of("0_1"), forgotten, "no longer reported as state on disk");
        assertEquals(1, deleted.value());
    }

    @Test
    void aDirectoryHeldByAnyThreadStaysWhenAnotherLetsItGo(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.claim("thread-0", Set.of(T0));
        dirs.claim("thread-1", Set.of(T0)); // e.g. a standby copy here, as a thread hands the task over
        dirs.hold("thread-0", Set.of());
        clock.addAndGet(10 * DELAY);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_0")));
    }

    @Test
    void aClaimAfterTheTaskWentAwayKeepsItsDirectory(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.claim("thread-0", Set.of(T0));
        dirs.hold("thread-0", Set.of());
        clock.addAndGet(DELAY / 2);
        dirs.claim("thread-0", Set.of(T0)); // assigned back just before the delay ran out
        clock.addAndGet(10 * DELAY);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_0")));
    }

    @Test
    void aDirectoryFoundAtStartCountsAsUnusedSinceTheInstanceWasMade(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        TaskDirectories dirs = directories(appDir, 1);
        clock.addAndGet(DELAY - 1);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_0")));
        clock.addAndGet(TaskDirectories.scanIntervalMs(DELAY));
        dirs.maybeClean(clock.get());
        assertFalse(Files.exists(appDir.resolve("0_0")));
    }

    @Test
    void nothingIsDeletedWhileStoresFoundAtStartMayBeOpen(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        settled.set(false);
        TaskDirectories dirs = directories(appDir, 1);
        clock.addAndGet(10 * DELAY);
        dirs.maybeClean(clock.get());
        assertTrue(Files.isDirectory(appDir.resolve("0_0")));
        settled.set(true);
        dirs.maybeClean(clock.get());
        assertFalse(Files.exists(appDir.resolve("0_0")));
    }

    @Test
    void onlyTaskDirectoriesAreEverDeleted(@TempDir Path appDir) throws IOException {
        Files.writeString(appDir.resolve(".lock"), "pid 1");
        Files.writeString(appDir.resolve("weir-process-id"), "abc");
        Files.createDirectories(appDir.resolve("global").resolve("rates"));
        Files.createDirectories(appDir.resolve("backup"));
        Files.writeString(appDir.resolve("0_9"), "a file named as a task");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.cleanAtStart();
        clock.addAndGet(10 * DELAY);
        dirs.maybeClean(clock.get());
        assertEquals(List.of(".lock", "0_9", "backup", "global", "weir-process-id"), entries(appDir));
        assertEquals(0, deleted.value());
    }

    @Test
    void atStartTheDirectoriesOfSubtopologiesTheTopologyDoesNotHaveAreDeleted(@TempDir Path appDir) throws IOException {
        taskDir(appDir, "0_0");
        taskDir(appDir, "1_0");
        taskDir(appDir, "2_3");
        directories(appDir, 2).cleanAtStart();
        assertEquals(List.of("0_0", "1_0"), entries(appDir));
        assertEquals(1, deleted.value());
    }

    @Test
    void whatAnInterruptedDeletionLeftIsDeletedAtStartAndAtTheNextScan(@TempDir Path appDir) throws IOException {
        taskDir(appDir, TaskDirectories.DELETING + "0_0-1");
        TaskDirectories dirs = directories(appDir, 1);
        dirs.cleanAtStart();
        assertEquals(List.of(), entries(appDir));
        taskDir(appDir, TaskDirectories.DELETING + "0_0-2");
        dirs.maybeClean(clock.get());
        assertEquals(List.of(), entries(appDir));
        assertEquals(0, deleted.value(), "counted when the task's directory went, not again");
    }

    @Test
    void theDecisionRules() {
        assertTrue(TaskDirectories.due(false, 0L, DELAY, DELAY));
        assertFalse(TaskDirectories.due(false, 1L, DELAY, DELAY), "unused for less than the delay");
        assertFalse(TaskDirectories.due(true, 0L, 10 * DELAY, DELAY), "held");
        assertFalse(TaskDirectories.due(false, null, 10 * DELAY, DELAY), "in use");
        assertTrue(TaskDirectories.due(false, 5L, 5L, 0), "a delay of 0 deletes at the first scan");
        assertTrue(TaskDirectories.obsoleteAtStart("3_0", true, 3));
        assertFalse(TaskDirectories.obsoleteAtStart("2_0", true, 3));
        assertFalse(TaskDirectories.obsoleteAtStart("3_0", false, 3), "a file is not Weir's");
        assertFalse(TaskDirectories.obsoleteAtStart("global", true, 3));
        assertFalse(TaskDirectories.obsoleteAtStart("x_1", true, 3));
        assertTrue(TaskDirectories.obsoleteAtStart(TaskDirectories.DELETING + "0_1-7", true, 3));
        assertEquals(100, TaskDirectories.scanIntervalMs(0));
        assertEquals(60_000, TaskDirectories.scanIntervalMs(600_000));
    }
}
