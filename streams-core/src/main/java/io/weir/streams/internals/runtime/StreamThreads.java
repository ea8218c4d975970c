package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.ThreadStall;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
import io.weir.streams.errors.DerivedRecordError;
import io.weir.streams.errors.RecordError;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.MetricGroup;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.query.LocalStores;
import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.topology.TopologySpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The stream threads of one instance: starts them, derives the instance's RUNNING / REBALANCING
 * state from theirs, applies the uncaught-exception handler when one fails (replace it, or fail the
 * instance), and stops them all. Thread-safe.
 *
 * <p>{@code REPLACE_THREAD} is bounded for every kind of failure. A thread is replaced at most once per
 * failing record: a replacement reads again from the last commit and would meet a poison record again, so a
 * second failure on the same input record (by coordinates, whichever thread owns it by then; a failure that
 * names no record counts as one on the record its thread was processing) fails the instance instead of
 * looping. And a failure that has nothing to do with records (a corrupt store, a full disk) would meet the
 * replacement too: after {@value #MAX_REPLACEMENTS_WITHOUT_COMMIT} replaced threads in a row that never
 * committed, the next failure fails the instance.
 */
public final class StreamThreads {

    private static final Logger log = LoggerFactory.getLogger(StreamThreads.class);
    static final int MAX_REPLACEMENTS_WITHOUT_COMMIT = 3;

    private final StreamsConfig config;
    private final TopologySpec topology;
    private final String processId;
    private final String clientId;
    private final MetricGroup metrics;
    private final RestoreListener restoreListener;
    private final StreamsUncaughtExceptionHandler handler;
    private final GroupListener group;
    private final Consumer<Throwable> fatal;
    private final Map<String, GlobalStore<?, ?>> globals;
    private final LocalStores localStores;
    private final PreopenedStores storesFound;
    private final TaskDirectories directories;
    private final ClusterMetadata cluster;
    private final List<StreamThread> threads = new ArrayList<>();
    /** The current threads, for readers of metrics that must not wait for this object's lock. */
    private volatile List<StreamThread> current = List.of();

    private final Set<StreamThread> running = ConcurrentHashMap.newKeySet();
    private final Set<String> failedRecords = new HashSet<>();
    private int generation;
    /** Threads replaced in a row whose failure came before they ever committed. */
    private int replacementsWithoutCommit;

    private final Counter replacements = new Counter();
    private boolean stopping;

    public StreamThreads(
            StreamsConfig config,
            TopologySpec topology,
            String processId,
            String clientId,
            MetricGroup metrics,
            RestoreListener restoreListener,
            StreamsUncaughtExceptionHandler handler,
            GroupListener group,
            Consumer<Throwable> fatal,
            Map<String, GlobalStore<?, ?>> globals,
            LocalStores localStores,
            PreopenedStores storesFound,
            TaskDirectories directories,
            ClusterMetadata cluster) {
        this.globals = globals;
        this.localStores = localStores;
        this.storesFound = storesFound;
        this.directories = directories;
        this.cluster = cluster;
        this.config = config;
        this.topology = topology;
        this.processId = processId;
        this.clientId = clientId;
        this.metrics = metrics;
        this.restoreListener = restoreListener;
        this.handler = handler;
        this.group = group;
        this.fatal = fatal;
    }

    /**
     * Makes the threads and their Kafka clients, without starting them (no network yet), so that it can
     * run while the topics are prepared. Until {@link #start()} the caller owns them: {@link
     * #closeUnstarted()} closes them.
     */
    public synchronized void make() {
        if (!threads.isEmpty()) {
            return;
        }
        try {
            for (int i = 0; i < config.threads(); i++) {
                threads.add(newThread(i));
            }
        } catch (RuntimeException e) {
            // A later thread's clients refused their settings: the earlier ones never run, so close them here.
            closeUnstarted();
            throw e;
        }
    }

    /** Closes the clients of threads made and never started. */
    public synchronized void closeUnstarted() {
        threads.forEach(StreamThread::closeUnstarted);
        threads.clear();
    }

    /**
     * Starts the threads ({@link #make() making} them first if need be); they join the group. The
     * sub-topologies' task counts must be known by then ({@link ClusterMetadata#taskCounts}).
     */
    public synchronized void start() {
        make();
        current = List.copyOf(threads);
        metrics.gauge(
                WeirMetrics.ALIVE_THREADS,
                () -> current.stream().filter(Thread::isAlive).count());
        metrics.counter(WeirMetrics.THREAD_REPLACEMENTS, replacements);
        metrics.gauge(WeirMetrics.STALLED_THREADS, () -> stalls().size());
        threads.forEach(Thread::start);
    }

    private StreamThread newThread(int index) {
        String name = clientId + "-thread-" + index + (generation == 0 ? "" : "-g" + generation);
        // Stable across restarts and thread replacement: a new producer with the same id fences the old
        // one and aborts its open transaction at once, instead of read_committed readers waiting for it
        // to time out.
        String transactionalId = config.applicationId() + "-" + processId + "-" + index;
        StreamThread[] self = new StreamThread[1];
        self[0] = new StreamThread(
                name,
                config,
                topology,
                processId,
                transactionalId,
                metrics.child(WeirMetric.Level.THREAD, name),
                config.groupInstanceId(processId).map(id -> id + "-" + index).orElse(null),
                restoreListener,
                globals,
                localStores,
                storesFound,
                directories,
                cluster,
                new StreamThread.Listener() {
                    @Override
                    public void onRunning(StreamThread thread) {
                        running.add(thread);
                        if (running.size() == config.threads()) {
                            group.allRunning();
                        }
                    }

                    @Override
                    public void onRebalancing(StreamThread thread) {
                        running.remove(thread);
                        group.rebalancing();
                    }
                },
                e -> onFailure(index, self[0], e));
        self[0].setDaemon(false);
        return self[0];
    }

    private void onFailure(int index, StreamThread failed, Throwable e) {
        running.remove(failed);
        StreamsUncaughtExceptionHandler.Response response;
        try {
            response = handler.handle(e);
        } catch (RuntimeException handlerFailure) {
            response = StreamsUncaughtExceptionHandler.Response.SHUTDOWN_CLIENT;
        }
        synchronized (this) {
            if (stopping) {
                return;
            }
            String record = failedRecord(e, failed);
            if (response == StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD && AccessErrors.isAccessError(e)) {
                log.error(
                        "Not replacing thread {}: Kafka refused its credentials or a permission, which a replacement "
                                + "would meet again",
                        failed.getName());
                response = StreamsUncaughtExceptionHandler.Response.SHUTDOWN_CLIENT;
            }
            if (response == StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD
                    && record != null
                    && !failedRecords.add(record)) {
                log.error(
                        "Not replacing thread {} again: it failed twice on the input record at {}, which a "
                                + "replacement would read again. Skip or dead-letter such records with an error "
                                + "handler (StreamsBuilder.setProcessingErrorHandler, Consumed.withErrorHandler or "
                                + "Produced.withErrorHandler).",
                        failed.getName(),
                        record);
                response = StreamsUncaughtExceptionHandler.Response.SHUTDOWN_CLIENT;
            }
            replacementsWithoutCommit = failed.hasCommitted() ? 0 : replacementsWithoutCommit + 1;
            if (response == StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD
                    && replacementsWithoutCommit > MAX_REPLACEMENTS_WITHOUT_COMMIT) {
                log.error(
                        "Not replacing thread {}: {} threads in a row failed before they ever committed, so a "
                                + "replacement would most likely fail too. Fix the cause in the error (a corrupt "
                                + "store, a full disk, a broker that refuses) and restart the instance.",
                        failed.getName(),
                        replacementsWithoutCommit);
                response = StreamsUncaughtExceptionHandler.Response.SHUTDOWN_CLIENT;
            }
            if (response == StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD) {
                replacements.increment();
                generation++;
                StreamThread replacement = newThread(index);
                threads.set(index, replacement);
                current = List.copyOf(threads);
                group.rebalancing();
                replacement.start();
                return;
            }
        }
        fatal.accept(e);
    }

    /**
     * The coordinates of the input record {@code e} failed on, or of the record {@code thread} was processing
     * when a failure that names none (a store's) came; null when it failed outside any record.
     */
    private static @Nullable String failedRecord(Throwable e, StreamThread thread) {
        String named = namedRecord(e);
        return named != null ? named : thread.failedRecord();
    }

    private static @Nullable String namedRecord(Throwable e) {
        if (e instanceof RecordError r) {
            return r.topic() + "-" + r.partition() + "@" + r.offset();
        }
        if (e instanceof DerivedRecordError d && d.sourceTopic().isPresent()) {
            return d.sourceTopic().get() + "-" + d.sourcePartition() + "@" + d.sourceOffset();
        }
        return null;
    }

    /**
     * Asks every thread to commit and stop, leaving the group if {@code leaveGroup}, and waits up to
     * {@code timeout}; returns whether all stopped.
     */
    public boolean stopAll(Duration timeout, boolean leaveGroup) {
        List<StreamThread> toStop;
        synchronized (this) {
            stopping = true;
            toStop = new ArrayList<>(threads);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (StreamThread t : toStop) {
            if (t != Thread.currentThread()) {
                t.requestStop(leaveGroup);
            }
        }
        boolean all = true;
        for (StreamThread t : toStop) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            all &= !t.isAlive();
        }
        return all;
    }

    /** The current threads (a replaced thread's successor, not the failed one). */
    public List<ThreadMetadata> metadata() {
        synchronized (this) {
            return threads.stream().map(StreamThread::metadata).toList();
        }
    }

    /** The stalled threads among the current ones (see {@link ThreadStall}); callable from any thread. */
    public List<ThreadStall> stalls() {
        List<ThreadStall> stalls = new ArrayList<>();
        for (StreamThread thread : current) {
            ThreadStall stall = thread.isAlive() ? thread.stall() : null;
            if (stall != null) {
                stalls.add(stall);
            }
        }
        return stalls;
    }

    public Map<String, Long> metricsSnapshot() {
        Map<String, Long> sum = new TreeMap<>();
        List<StreamThread> snapshot;
        synchronized (this) {
            snapshot = new ArrayList<>(threads);
        }
        snapshot.forEach(t -> t.metricsSnapshot().forEach((k, v) -> sum.merge(k, v, Long::sum)));
        return sum;
    }

    /** What the threads tell the application about the group they run in. Called on the stream threads. */
    public interface GroupListener {

        /** Every thread has finished its rebalance and processes its tasks. */
        void allRunning();

        /** A thread began a rebalance (or replaces a failed thread), so the group is not running as a whole. */
        void rebalancing();
    }
}
