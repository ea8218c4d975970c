package io.weir.streams.internals.runtime;

import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.topology.TaskId;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The task directories in the application's state directory ({@code <state.dir>/<application.id>/<task>}):
 * which of them the instance's threads hold, and the deletion of those it holds no more
 * ({@code state.cleanup.delay.ms}).
 *
 * <p>A thread {@link #claim claims} a task's directory before it opens the task's stores (as an active task,
 * a standby copy or a warm-up) and says what it {@link #hold holds} after each change, so a directory is
 * unused from the moment no thread holds it. A directory unused for the delay is deleted by {@link
 * #maybeClean}, which any stream thread calls between polls (one at a time, at most once per {@link
 * #scanIntervalMs}): it is renamed under this object's lock, so a claim either comes first (and the
 * directory stays) or finds no directory (and the task starts from its changelog), then removed outside it.
 * A directory found at start and taken by no thread counts as unused since this object was made. Nothing is
 * deleted until the stores opened ahead of their tasks ({@code PreopenedStores}) are all claimed or closed,
 * and a deleted task is dropped from the state on disk the instance reports to the group leader.
 *
 * <p>{@link #cleanAtStart} deletes, before anything is opened, the directories of tasks of sub-topologies
 * the topology does not have (a changed topology) and what an interrupted deletion left. Only directories
 * named as a task ({@code <sub-topology>_<partition>}) or as a deletion under way ({@value #DELETING}...)
 * are ever deleted; every other entry (the lock file, the process id, the global tables' {@code global}
 * directory, anything else) is left as it is.
 *
 * <p>A deletion that fails is logged at WARN and tried again at the next scan; it never fails a thread.
 * Thread-safe.
 */
public final class TaskDirectories {

    private static final Logger log = LoggerFactory.getLogger(TaskDirectories.class);

    /** The name prefix of a task directory being deleted: renamed first, so no task ever sees half of it. */
    static final String DELETING = "weir-deleting-";

    private static final long MAX_SCAN_INTERVAL_MS = 60_000;
    private static final long MIN_SCAN_INTERVAL_MS = 100;

    private final Path appDir;
    private final int subtopologies;
    private final long delayMs;
    private final BooleanSupplier storesSettled;
    private final Consumer<String> forget;
    private final Counter deleted;
    private final LongSupplier clock;
    private final long createdMs;

    /** The tasks each thread holds, by thread name. Guarded by this. */
    private final Map<String, Set<TaskId>> holds = new HashMap<>();
    /** Since when each task directory known to be unused here has been unused. Guarded by this. */
    private final Map<TaskId, Long> unusedSince = new HashMap<>();

    private final ReentrantLock cleaning = new ReentrantLock();
    private volatile long nextScanMs;

    /**
     * @param appDir         {@code <state.dir>/<application.id>}
     * @param subtopologies  how many sub-topologies the topology has (ids {@code 0} to this, exclusive)
     * @param delayMs        {@code state.cleanup.delay.ms}: how long a directory stays unused before it is deleted
     * @param storesSettled  whether no store found at start is open ahead of its task any more
     * @param forget         drops a deleted task (by directory name) from the state on disk the instance reports
     * @param deleted        counts the directories deleted
     * @param clock          the wall clock, in milliseconds
     */
    public TaskDirectories(
            Path appDir,
            int subtopologies,
            long delayMs,
            BooleanSupplier storesSettled,
            Consumer<String> forget,
            Counter deleted,
            LongSupplier clock) {
        this.appDir = appDir;
        this.subtopologies = subtopologies;
        this.delayMs = delayMs;
        this.storesSettled = storesSettled;
        this.forget = forget;
        this.deleted = deleted;
        this.clock = clock;
        this.createdMs = clock.getAsLong();
    }

    /** How often {@link #maybeClean} looks: the delay, between 100 ms and one minute. */
    static long scanIntervalMs(long delayMs) {
        return Math.max(MIN_SCAN_INTERVAL_MS, Math.min(delayMs, MAX_SCAN_INTERVAL_MS));
    }

    /**
     * Whether the entry {@code name} of the application's directory is to be deleted at start: a directory
     * named as a task of a sub-topology the topology does not have, or a deletion an earlier run left.
     */
    static boolean obsoleteAtStart(String name, boolean directory, int subtopologies) {
        if (!directory) {
            return false;
        }
        if (name.startsWith(DELETING)) {
            return true;
        }
        return TaskId.parse(name).map(t -> t.subtopology() >= subtopologies).orElse(false);
    }

    /**
     * Whether a task directory is to be deleted now: no thread holds it, and it has been unused for the delay.
     *
     * @param unusedSinceMs since when it has been unused, null if it is in use
     */
    static boolean due(boolean held, @Nullable Long unusedSinceMs, long nowMs, long delayMs) {
        return !held && unusedSinceMs != null && nowMs - unusedSinceMs >= delayMs;
    }

    /**
     * Deletes the directories {@link #obsoleteAtStart} names; call before any store is opened. Logs what it
     * deleted; a failure is logged and the directory left for the next scan or start.
     */
    public void cleanAtStart() {
        for (Path entry : entries()) {
            String name = String.valueOf(entry.getFileName());
            if (!obsoleteAtStart(name, Files.isDirectory(entry), subtopologies)) {
                continue;
            }
            if (name.startsWith(DELETING)) {
                removeTree(entry);
            } else if (removeTree(entry)) {
                deleted.increment();
                log.info(
                        "Deleted the state directory of task {} in {} at start: the topology has no such sub-topology (it has {})",
                        name,
                        appDir,
                        subtopologies);
            }
        }
    }

    /** Thread {@code holder} is about to open the stores of {@code tasks}: their directories stay. */
    synchronized void claim(String holder, Collection<TaskId> tasks) {
        holds.computeIfAbsent(holder, h -> new HashSet<>()).addAll(tasks);
        tasks.forEach(unusedSince::remove);
    }

    /**
     * Thread {@code holder} holds exactly {@code tasks} now (its running, restoring and standby tasks); a
     * task that no thread holds any more is unused from now.
     */
    synchronized void hold(String holder, Set<TaskId> tasks) {
        Set<TaskId> before = tasks.isEmpty() ? holds.remove(holder) : holds.put(holder, new HashSet<>(tasks));
        if (before == null) {
            return;
        }
        Set<TaskId> held = held();
        long now = clock.getAsLong();
        for (TaskId task : before) {
            if (!held.contains(task)) {
                unusedSince.putIfAbsent(task, now);
            }
        }
    }

    private Set<TaskId> held() {
        Set<TaskId> held = new HashSet<>();
        holds.values().forEach(held::addAll);
        return held;
    }

    /**
     * Deletes the task directories unused for the delay, if a scan is due and no other thread scans; returns
     * at once otherwise. Called by stream threads between polls; never throws.
     */
    void maybeClean(long nowMs) {
        if (nowMs < nextScanMs || !cleaning.tryLock()) {
            return;
        }
        try {
            if (nowMs < nextScanMs || !storesSettled.getAsBoolean()) {
                return;
            }
            nextScanMs = nowMs + scanIntervalMs(delayMs);
            scan(nowMs);
        } catch (RuntimeException e) {
            log.warn("Deleting unused task directories in {} failed; trying again later", appDir, e);
        } finally {
            cleaning.unlock();
        }
    }

    private void scan(long nowMs) {
        List<Path> trash = new ArrayList<>();
        Set<TaskId> moved = new TreeSet<>();
        for (Path entry : entries()) {
            String name = String.valueOf(entry.getFileName());
            if (!Files.isDirectory(entry)) {
                continue;
            }
            if (name.startsWith(DELETING)) {
                trash.add(entry);
                continue;
            }
            TaskId task = TaskId.parse(name).orElse(null);
            if (task == null) {
                continue;
            }
            Path renamed = moveAsideIfDue(task, entry, nowMs);
            if (renamed != null) {
                trash.add(renamed);
                moved.add(task);
            }
        }
        for (Path dir : trash) {
            removeTree(dir);
        }
        if (!moved.isEmpty()) {
            log.info(
                    "Deleted the state directories of tasks {} in {}: no thread here has held them for {} ms "
                            + "(state.cleanup.delay.ms)",
                    moved,
                    appDir,
                    delayMs);
        }
    }

    /** Renames the directory of {@code task} out of the way if it is due, under the lock claims take. */
    private synchronized @Nullable Path moveAsideIfDue(TaskId task, Path dir, long nowMs) {
        boolean held = held().contains(task);
        Long since = held ? null : unusedSince.computeIfAbsent(task, t -> createdMs);
        if (!due(held, since, nowMs, delayMs)) {
            return null;
        }
        Path aside = dir.resolveSibling(DELETING + task + "-" + System.nanoTime());
        try {
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("Cannot delete the state directory {} of task {}; trying again later", dir, task, e);
            return null;
        }
        unusedSince.remove(task);
        forget.accept(task.toString());
        deleted.increment();
        return aside;
    }

    /** The entries of the application's directory; none if it cannot be listed (logged). */
    private List<Path> entries() {
        if (!Files.isDirectory(appDir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(appDir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            log.warn("Cannot list {} to delete unused task directories; trying again later", appDir, e);
            return List.of();
        }
    }

    /** Deletes {@code dir} and what it holds; logs and returns false if that fails. */
    private static boolean removeTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, @Nullable IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            log.warn("Cannot delete {}; trying again later", dir, e);
            return false;
        }
    }
}
