package io.weir.streams.internals.task;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.StoreOpener;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.state.StoreType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The RocksDB stores an instance finds in its state directory when it starts, opened in the background
 * while it prepares its topics, makes its clients and joins its group, so that a task assigned back to it
 * finds its stores open. Opening a store costs 0.1 s when it was closed cleanly, and more after a
 * {@code kill -9}, when RocksDB replays the write-ahead log into memory and flushes it (0.5 s for a few
 * MiB of log): a restarted instance with several tasks would otherwise spend seconds opening stores after
 * its assignment, with its tasks paused.
 *
 * <p>Each store found is handed out at most once: to the first task that {@link #open opens} its
 * directory (waiting for the background open under way, or opening it itself if that has not started),
 * or, once the instance {@link #release releases} what is left (when it first runs all its tasks), to
 * the background thread, which closes it. A store asked for after that, or never found, is opened
 * directly. A background open that fails is only logged: the task's own open then meets the failure.
 *
 * <p>What the stores no task took hold ({@link #unclaimedOffsets}) is the instance's state on disk that it
 * reports to the group leader when it joins, so that tasks it is caught up on come back to it.
 *
 * <p>Thread-safe: stream threads claim stores while the background thread opens them. Owns the stores
 * until they are claimed, and its background thread, which {@link #close} ends.
 */
public final class PreopenedStores implements StoreOpener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PreopenedStores.class);

    private static final int NEW = 0;
    private static final int OPENING = 1;
    private static final int CLAIMED = 2;

    private final Path appDir;
    private final TopologySpec topology;
    private final String threadName;
    private final StoreOpener direct;
    private final Map<Path, Found> found = new ConcurrentHashMap<>();
    /** By directory, the changelog offset of each store opened in the background that no task took. */
    private final Map<Path, Stored> unclaimedOffsets = new ConcurrentHashMap<>();

    /** Store {@code store} of the task in directory {@code task} holds its changelog up to {@code offset}. */
    private record Stored(String task, String store, long offset) {}

    private @Nullable ExecutorService opener;
    private @Nullable Thread openerThread;
    private boolean released;

    /** A store directory found at start. */
    private static final class Found {
        final String task;
        final String name;
        final Path dir;
        final AtomicInteger state = new AtomicInteger(NEW);
        final CompletableFuture<RocksDbBytesStore> opened = new CompletableFuture<>();

        Found(String task, String name, Path dir) {
            this.task = task;
            this.name = name;
            this.dir = dir;
        }
    }

    /**
     * @param appDir     the application's state directory, holding one directory per task
     * @param threadName the name of the background thread
     * @param direct     what opens each store (with the instance's shared RocksDB resources)
     */
    public PreopenedStores(Path appDir, TopologySpec topology, String threadName, StoreOpener direct) {
        this.appDir = appDir;
        this.topology = topology;
        this.threadName = threadName;
        this.direct = direct;
    }

    /**
     * Lists the RocksDB stores of the topology's tasks in the state directory now, and starts opening
     * them in the background. Lists before returning, so a task opened afterwards finds its store either
     * listed here or absent from the directory. Does nothing once released.
     */
    public synchronized void begin() {
        if (released || opener != null) {
            return;
        }
        List<Found> stores = list();
        if (stores.isEmpty()) {
            return;
        }
        stores.forEach(f -> found.put(f.dir, f));
        ExecutorService background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            openerThread = t;
            return t;
        });
        opener = background;
        background.execute(() -> stores.forEach(this::openInBackground));
        log.debug("Opening {} stores found in {} while the instance starts", stores.size(), appDir);
    }

    private List<Found> list() {
        List<Found> stores = new ArrayList<>();
        for (SubtopologySpec sub : topology.subtopologies()) {
            List<String> names = topology.storesOf(sub).stream()
                    .filter(s -> s.type() == StoreType.ROCKSDB)
                    .map(StoreSpec::name)
                    .toList();
            if (names.isEmpty()) {
                continue;
            }
            for (Path taskDir : taskDirs(sub.id())) {
                for (String name : names) {
                    Path dir = taskDir.resolve(name);
                    // A database RocksDB made: a directory without one is opened (created) by its task.
                    if (Files.isRegularFile(dir.resolve("CURRENT"))) {
                        stores.add(new Found(String.valueOf(taskDir.getFileName()), name, dir));
                    }
                }
            }
        }
        return stores;
    }

    /** The directories of sub-topology {@code id}'s tasks, named {@code <id>_<partition>}, in order. */
    private List<Path> taskDirs(int id) {
        if (!Files.isDirectory(appDir)) {
            return List.of();
        }
        String prefix = id + "_";
        try (Stream<Path> dirs = Files.list(appDir)) {
            return dirs.filter(Files::isDirectory)
                    .filter(d -> {
                        String n = d.getFileName().toString();
                        return n.startsWith(prefix)
                                && n.substring(prefix.length()).matches("[0-9]+");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            log.warn("Cannot list the task directories in {}; their stores open when assigned", appDir, e);
            return List.of();
        }
    }

    private void openInBackground(Found f) {
        if (!f.state.compareAndSet(NEW, OPENING)) {
            return;
        }
        try {
            RocksDbBytesStore store = direct.open(f.name, f.dir);
            Long offset = ChangelogOffset.of(store);
            if (offset != null) {
                // Before the store is handed out: a task that takes it then finds the offset to remove.
                unclaimedOffsets.put(f.dir, new Stored(f.task, f.name, offset));
            }
            f.opened.complete(store);
        } catch (RuntimeException e) {
            log.debug("Opening store {} in {} ahead of its task failed; the task opens it itself", f.name, f.dir, e);
            f.opened.completeExceptionally(e);
        }
    }

    /**
     * The store in {@code dir}: the one opened in the background if there is one (waiting for its open to
     * end), else opened now. The caller owns it.
     */
    @Override
    public RocksDbBytesStore open(String name, Path dir) {
        Found f = found.remove(dir);
        RocksDbBytesStore store = f == null || f.state.compareAndSet(NEW, CLAIMED) ? null : opened(f);
        unclaimedOffsets.remove(dir);
        return store != null ? store : direct.open(name, dir);
    }

    @Override
    public boolean memoryOverBound() {
        return direct.memoryOverBound();
    }

    /**
     * State this instance has on disk and no task here uses: for each store found at start, opened in the
     * background so far and not taken by a task since, the changelog offset it holds its changelog up to
     * ({@link ChangelogOffset}), by task directory name ({@code <subtopology>_<partition>}) and store name.
     * Kept after the store is closed unclaimed: the state stays on disk as it was.
     */
    public Map<String, Map<String, Long>> unclaimedOffsets() {
        Map<String, Map<String, Long>> byTask = new TreeMap<>();
        unclaimedOffsets
                .values()
                .forEach(stored -> byTask.computeIfAbsent(stored.task(), t -> new TreeMap<>())
                        .put(stored.store(), stored.offset()));
        return byTask;
    }

    /**
     * Drops what {@link #unclaimedOffsets} says of the task in directory {@code task}: its state was deleted
     * from disk, and the instance must not report it any more.
     */
    public void forget(String task) {
        unclaimedOffsets.values().removeIf(stored -> stored.task().equals(task));
    }

    /**
     * Whether this holds no store open any more, nor will: it was {@link #release released} and its
     * background thread, which closes the stores no task took, has ended (or never started). Until then a
     * task directory may hold a store this has open.
     */
    public synchronized boolean settled() {
        return released && (opener == null || opener.isTerminated());
    }

    /** The store the background opened, once it is open; null if that failed. */
    private static @Nullable RocksDbBytesStore opened(Found f) {
        try {
            return f.opened.join();
        } catch (CompletionException e) {
            return null;
        }
    }

    /**
     * Closes, in the background, the stores no task has claimed, and ends the background thread: later
     * opens open directly. Returns at once; idempotent.
     */
    public synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        ExecutorService background = opener;
        if (background == null) {
            return;
        }
        background.execute(this::closeUnclaimed);
        background.shutdown();
    }

    private void closeUnclaimed() {
        int closed = 0;
        for (Path dir : List.copyOf(found.keySet())) {
            Found f = found.remove(dir);
            if (f == null || f.state.compareAndSet(NEW, CLAIMED)) {
                continue;
            }
            RocksDbBytesStore store = opened(f);
            if (store != null) {
                try {
                    store.close();
                    closed++;
                } catch (RuntimeException e) {
                    log.warn("Closing store {} in {}, which no task here took, failed", f.name, f.dir, e);
                }
            }
        }
        if (closed > 0) {
            log.debug("Closed {} stores found at start that no task here took", closed);
        }
    }

    /**
     * {@link #release Releases} the stores no task claimed and waits up to {@code timeout} for them to be
     * closed and the background thread to end.
     *
     * @return whether everything was closed in time
     */
    public boolean close(Duration timeout) {
        release();
        Thread background;
        synchronized (this) {
            background = openerThread;
        }
        if (background == null) {
            return true;
        }
        try {
            background.join(Math.max(1, TimeMath.millis(timeout)));
            return !background.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }
}
