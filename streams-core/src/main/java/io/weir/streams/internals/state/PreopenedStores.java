package io.weir.streams.internals.state;

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
    private final Map<Path, Found> found = new ConcurrentHashMap<>();
    private @Nullable ExecutorService opener;
    private @Nullable Thread openerThread;
    private boolean released;

    /** A store directory found at start. */
    private static final class Found {
        final String name;
        final Path dir;
        final AtomicInteger state = new AtomicInteger(NEW);
        final CompletableFuture<RocksDbBytesStore> opened = new CompletableFuture<>();

        Found(String name, Path dir) {
            this.name = name;
            this.dir = dir;
        }
    }

    /**
     * @param appDir     the application's state directory, holding one directory per task
     * @param threadName the name of the background thread
     */
    public PreopenedStores(Path appDir, TopologySpec topology, String threadName) {
        this.appDir = appDir;
        this.topology = topology;
        this.threadName = threadName;
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
        background.execute(() -> stores.forEach(PreopenedStores::openInBackground));
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
                        stores.add(new Found(name, dir));
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

    private static void openInBackground(Found f) {
        if (!f.state.compareAndSet(NEW, OPENING)) {
            return;
        }
        try {
            f.opened.complete(RocksDbBytesStore.open(f.name, f.dir));
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
        if (f == null || f.state.compareAndSet(NEW, CLAIMED)) {
            return RocksDbBytesStore.open(name, dir);
        }
        RocksDbBytesStore store = opened(f);
        return store != null ? store : RocksDbBytesStore.open(name, dir);
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
            background.join(Math.max(1, timeout.toMillis()));
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
