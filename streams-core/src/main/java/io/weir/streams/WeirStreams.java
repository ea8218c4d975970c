package io.weir.streams;

import io.weir.streams.dsl.StreamPartitioner;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.JmxReporter;
import io.weir.streams.internals.metrics.MetricGroup;
import io.weir.streams.internals.metrics.MetricsRegistry;
import io.weir.streams.internals.query.Serving;
import io.weir.streams.internals.runtime.AccessErrors;
import io.weir.streams.internals.runtime.GlobalTables;
import io.weir.streams.internals.runtime.InternalTopicManager;
import io.weir.streams.internals.runtime.StreamThreads;
import io.weir.streams.internals.runtime.TaskDirectories;
import io.weir.streams.internals.state.ProcessId;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.StateDirectory;
import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.StoreLag;
import io.weir.streams.state.StoreQuery;
import io.weir.streams.state.StoreUnavailableException;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One instance of a Weir application. Start as many instances (in as many processes) with the same
 * {@code application.id} as you want: they form a consumer group and share the work, task by task.
 *
 * <pre>{@code
 * WeirStreams app = new WeirStreams(builder.build(), Map.of(
 *         "application.id", "fraud-alerts", "bootstrap.servers", "localhost:9092"));
 * Runtime.getRuntime().addShutdownHook(new Thread(() -> app.close(Duration.ofSeconds(30))));
 * app.start();
 * }</pre>
 *
 * <p>{@link #start()} returns at once; a background thread creates the internal topics (retrying with
 * backoff while Kafka is unreachable, and logging why), then starts {@code num.stream.threads} stream
 * threads. A missing source topic, or co-partitioned topics that differ in partition count, move the
 * instance to {@link State#ERROR} with the topic named in {@link #error()}. Thread-safe.
 */
public final class WeirStreams implements AutoCloseable {

    /** The lifecycle of an instance. */
    public enum State {
        /** Constructed; {@link #start()} not called yet. */
        CREATED,
        /**
         * Started, and some thread is joining the group, taking part in a rebalance or restoring its tasks:
         * normal operation, during which some tasks do not process.
         */
        REBALANCING,
        /** Every stream thread has its tasks restored and is processing them. */
        RUNNING,
        /** {@code close} was called and the threads are stopping. */
        PENDING_SHUTDOWN,
        /** Closed: every thread has stopped. */
        NOT_RUNNING,
        /** Failed: the instance stopped processing; {@link #error()} says why. Close it to release its resources. */
        ERROR
    }

    /** Called on every state change, on the thread that caused it. */
    @FunctionalInterface
    public interface StateListener {
        /**
         * Called after the instance moved from {@code oldState} to {@code newState}.
         *
         * @param newState the state the instance is now in
         * @param oldState the state it left
         */
        void onChange(State newState, State oldState);
    }

    private static final Logger log = LoggerFactory.getLogger(WeirStreams.class);

    private final TopologySpec topology;
    private final StreamsConfig config;
    private final String processId;
    private final List<StateListener> listeners = new CopyOnWriteArrayList<>();
    private volatile StreamsUncaughtExceptionHandler handler =
            e -> StreamsUncaughtExceptionHandler.Response.SHUTDOWN_CLIENT;
    private volatile RestoreListener restoreListener = new RestoreListener() {};
    private volatile State state = State.CREATED;
    private volatile @Nullable Throwable error;
    private @Nullable StreamThreads threads;
    private @Nullable GlobalTables globals;
    private @Nullable Thread starter;
    private final Serving serving;
    private final PreopenedStores preopened;
    private final TaskDirectories taskDirectories;
    private final Counter directoriesDeleted = new Counter();
    private final MetricsRegistry metrics = new MetricsRegistry();
    private final JmxReporter jmx = new JmxReporter();
    private final MetricGroup applicationMetrics;
    private final AccessErrors accessErrors;
    private final StateDirectory stateDirectory;
    /** What every RocksDB store of the instance shares; closed after the last of them. */
    private final RocksDbResources rocksDb;

    /**
     * An instance that runs {@code topology} with {@code config}, not started: takes the application's state
     * directory (a lock, released by {@code close}) and checks the settings.
     *
     * @param topology the topology, from {@link StreamsBuilder#build()}
     * @param config the settings, as {@link StreamsConfig} reads them ({@code application.id} and {@code
     *     bootstrap.servers} are required)
     * @throws org.apache.kafka.common.config.ConfigException naming the key of an invalid or missing setting
     */
    public WeirStreams(Topology topology, Map<String, ?> config) {
        this.topology = TopologyAccess.spec(Objects.requireNonNull(topology, "topology"));
        this.config = new StreamsConfig(config);
        this.rocksDb = RocksDbResources.of(
                this.config.rocksDbMemoryMaxBytes(),
                this.config.rocksDbWriteBufferRatio(),
                this.config.rocksDbConfigSetter().orElse(null));
        try {
            this.stateDirectory = StateDirectory.take(this.config.stateDir(), this.config.applicationId());
        } catch (RuntimeException e) {
            rocksDb.close();
            throw e;
        }
        try {
            this.processId = ProcessId.load(stateDirectory.directory());
            this.topology.idlenessWarnings().forEach(log::warn);
            this.topology.configureSerdes(this.config.serdeConfig());
            this.serving = new Serving(this.topology, this.config.applicationId(), this::stopping);
            this.preopened = new PreopenedStores(
                    stateDirectory.directory(),
                    this.topology,
                    "weir-" + this.config.applicationId() + "-store-opener",
                    rocksDb);
            this.taskDirectories = new TaskDirectories(
                    stateDirectory.directory(),
                    this.topology.subtopologies().size(),
                    this.config.stateCleanupDelayMs(),
                    preopened::settled,
                    preopened::forget,
                    directoriesDeleted,
                    System::currentTimeMillis);
            this.applicationMetrics = MetricGroup.application(metrics, this.config.applicationId(), clientId());
            this.accessErrors = new AccessErrors(this.config, this.topology);
        } catch (RuntimeException e) {
            stateDirectory.close();
            rocksDb.close();
            throw e;
        }
    }

    /** The {@link WeirMetrics#STATE} gauge's code for {@code s}, fixed so dashboards can rely on it. */
    private static int stateCode(State s) {
        return switch (s) {
            case CREATED -> 0;
            case REBALANCING -> 1;
            case RUNNING -> 2;
            case PENDING_SHUTDOWN -> 3;
            case NOT_RUNNING -> 4;
            case ERROR -> 5;
        };
    }

    /**
     * What tells this instance's threads, clients and metrics apart from those of other instances of the
     * application, in one JVM or in one log search: the application id and the process id's first characters.
     */
    private String clientId() {
        return "weir-" + config.applicationId() + "-" + processId.substring(0, Math.min(8, processId.length()));
    }

    /**
     * Adds {@code listener} to the listeners told of every state change: it does not replace one set
     * before. Add it before {@link #start()} to see every change.
     *
     * @param listener called on every state change, on the thread that caused it
     */
    public void setStateListener(StateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Replaces the handler that decides what happens when a stream thread fails; the default answers {@link
     * StreamsUncaughtExceptionHandler.Response#SHUTDOWN_CLIENT}. Set it before {@link #start()}: the stream
     * threads read it when they are made, so a later change may not reach them.
     *
     * @param handler called with the failure of each stream thread
     */
    public void setUncaughtExceptionHandler(StreamsUncaughtExceptionHandler handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * Replaces the listener told of each store's restoration from its changelog (by default none). Set it
     * before {@link #start()}: the stream threads read it when they are made, so a later change may not
     * reach them.
     *
     * @param listener told of the restorations, on the restoring stream thread
     */
    public void setRestoreListener(RestoreListener listener) {
        this.restoreListener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * The instance's current state.
     *
     * @return the state; see {@link State}
     */
    public State state() {
        return state;
    }

    /**
     * Why the instance is in {@link State#ERROR}; empty in every other state.
     *
     * @return the failure that moved the instance to {@link State#ERROR}, if it is there
     */
    public Optional<Throwable> error() {
        return Optional.ofNullable(error);
    }

    /** Starts the instance in the background (see the class docs). Call once. */
    public synchronized void start() {
        if (state != State.CREATED) {
            throw new IllegalStateException("start() was already called (state " + state + ")");
        }
        transition(State.REBALANCING);
        metrics.addListener(jmx);
        applicationMetrics.gauge(WeirMetrics.STATE, () -> stateCode(state));
        if (rocksDb.boundBytes() >= 0) {
            applicationMetrics.gauge(WeirMetrics.ROCKSDB_MEMORY_USED_BYTES, rocksDb::usedBytes);
            applicationMetrics.gauge(WeirMetrics.ROCKSDB_MEMORY_PINNED_BYTES, rocksDb::pinnedBytes);
        }
        applicationMetrics.gauge(WeirMetrics.ROCKSDB_OPEN_STORES, rocksDb::openStores);
        applicationMetrics.counter(WeirMetrics.STATE_DIRECTORIES_DELETED, directoriesDeleted);
        taskDirectories.cleanAtStart();
        preopened.begin();
        starter = new Thread(this::prepareAndRun, "weir-" + config.applicationId() + "-start");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * The start thread: prepares the topics, bootstraps the global tables, then starts the stream
     * threads. Without source patterns or global tables the threads run the topology as given, so their
     * Kafka clients are made on another thread while the topics are prepared (each takes a second or so
     * on a restart, which waits for both before it rejoins).
     */
    private void prepareAndRun() {
        CompletableFuture<StreamThreads> making = null;
        if (!topology.hasPatterns() && topology.globalTables().isEmpty()) {
            making = CompletableFuture.supplyAsync(() -> madeThreads(topology, Map.of()), runnable -> {
                Thread maker = new Thread(runnable, "weir-" + config.applicationId() + "-clients");
                maker.setDaemon(true);
                maker.start();
            });
        }
        InternalTopicManager.Prepared prepared = prepareTopics();
        GlobalTables global = prepared == null ? null : bootstrapGlobalTables(prepared);
        if (prepared == null
                || (global == null && !prepared.topology().globalTables().isEmpty())) {
            discard(making);
            return;
        }
        StreamThreads made;
        try {
            made = making != null
                    ? making.join()
                    : madeThreads(prepared.topology(), global == null ? Map.of() : global.stores());
        } catch (RuntimeException e) {
            // A client the threads make refused its settings: fail, rather than leave the start thread dead.
            if (!stopping()) {
                fail(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
            }
            return;
        }
        synchronized (this) {
            if (stopping()) {
                discard(CompletableFuture.completedFuture(made));
                return;
            }
            if (global != null) {
                global.start();
            }
            serving.cluster().taskCounts(prepared.taskCounts());
            threads = made;
            made.start();
            log.info("Started {} stream thread(s) of application {}", config.threads(), config.applicationId());
        }
    }

    /**
     * Closes the clients of threads that will not start, once they are made. {@link #close} may have
     * interrupted this thread: the clients are closed with the flag cleared (and it is set again after),
     * so that they wait for their own threads to end.
     */
    private static void discard(@Nullable CompletableFuture<StreamThreads> making) {
        if (making == null) {
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            making.join().closeUnstarted();
        } catch (RuntimeException e) {
            log.debug("Making the stream threads failed; nothing to close", e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The topics prepared (see {@link InternalTopicManager}); null if that failed (and failed the instance). */
    private InternalTopicManager.@Nullable Prepared prepareTopics() {
        long began = System.nanoTime();
        try (InternalTopicManager topics = new InternalTopicManager(config)) {
            InternalTopicManager.Prepared prepared = topics.prepare(topology, this::stopping);
            // One line per phase of a start, with its duration: the timeline of a restart reads from the log.
            log.info(
                    "Prepared the topics of application {} in {} ms",
                    config.applicationId(),
                    (System.nanoTime() - began) / 1_000_000);
            return prepared;
        } catch (RuntimeException e) {
            if (!stopping()) {
                fail(e);
            }
            return null;
        }
    }

    /** The global tables, bootstrapped; null if there are none, or if that failed (and failed the instance). */
    private @Nullable GlobalTables bootstrapGlobalTables(InternalTopicManager.Prepared prepared) {
        if (prepared.topology().globalTables().isEmpty()) {
            return null;
        }
        try {
            GlobalTables global =
                    new GlobalTables(prepared.topology().globalTables(), config, clientId(), rocksDb, this::fail);
            synchronized (this) {
                globals = global;
            }
            global.bootstrap(this::stopping);
            global.stores().forEach((name, store) -> serving.hostGlobalTable(name, store::view));
            return global;
        } catch (RuntimeException e) {
            if (!stopping()) {
                fail(e);
            }
            return null;
        }
    }

    /** The stream threads, their clients made, not started: the caller owns them until it starts them. */
    private StreamThreads madeThreads(TopologySpec runs, Map<String, GlobalStore<?, ?>> globalStores) {
        long began = System.nanoTime();
        StreamThreads made = new StreamThreads(
                config,
                runs,
                processId,
                clientId(),
                applicationMetrics,
                restoreListener,
                handler,
                new StreamThreads.GroupListener() {
                    @Override
                    public void allRunning() {
                        transitionIfActive(State.RUNNING);
                    }

                    @Override
                    public void rebalancing() {
                        transitionIfActive(State.REBALANCING);
                    }
                },
                this::fail,
                globalStores,
                serving.local(),
                preopened,
                taskDirectories,
                serving.cluster());
        made.make();
        log.info(
                "Made the clients of {} stream thread(s) of application {} in {} ms",
                config.threads(),
                config.applicationId(),
                (System.nanoTime() - began) / 1_000_000);
        return made;
    }

    private boolean stopping() {
        return state == State.PENDING_SHUTDOWN || state == State.NOT_RUNNING || state == State.ERROR;
    }

    private void fail(Throwable failure) {
        // Bad credentials or a missing ACL: say which setting or permission to fix.
        RuntimeException access = accessErrors.explain(failure);
        Throwable e = access == null ? failure : access;
        log.error(
                "Weir application {} failed: {}",
                config.applicationId(),
                Redaction.strip(e.getMessage()),
                Redaction.forLog(e));
        error = e;
        transition(State.ERROR);
        StreamThreads t;
        synchronized (this) {
            t = threads;
        }
        if (t != null) {
            // A failed instance will not process its tasks: let the others take them at once.
            t.stopAll(Duration.ofSeconds(30), true);
        }
    }

    private synchronized void transitionIfActive(State next) {
        if (!stopping() && state != State.CREATED) {
            transition(next);
        }
    }

    private void transition(State next) {
        State old;
        synchronized (this) {
            old = state;
            if (old == next) {
                return;
            }
            state = next;
        }
        log.info("Weir application {}: {} -> {}", config.applicationId(), old, next);
        if (next == State.RUNNING) {
            // Every thread took its tasks: the stores found at start that none took are not needed.
            preopened.release();
        }
        for (StateListener l : listeners) {
            l.onChange(next, old);
        }
    }

    /**
     * A read-only view of the store {@code name} as this instance holds it: the copies of its tasks here
     * (one per input partition they own), read as one store. Queryable, by the name given with {@code
     * Materialized.as(name)}: tables (read from a topic, aggregated, or derived and materialized) and
     * keyed processors' key-value stores as {@code QueryableStoreType.keyValueStore()}; windowed
     * aggregations and keyed processors' window stores as {@code QueryableStoreType.windowStore()};
     * session-window aggregations as {@code QueryableStoreType.sessionStore()}.
     *
     * <p>Reads see <b>committed state only</b>: what the tasks' last successful commits wrote, never a
     * value still in a task's write-back cache, so never one that a later abort takes back. A value is so
     * up to a commit interval behind the output of the same update. The view stays usable across
     * rebalances and answers from the copies held at each call. A read fails with a {@link
     * StoreUnavailableException} when it cannot be answered here: a copy is restoring ({@code RESTORING},
     * retriable), no task here holds the store ({@code NOT_LOCAL}: during a rebalance, or other instances
     * hold it; retriable), or the application stopped or failed ({@code NOT_RUNNING}). Thread-safe.
     *
     * @param <T> the view's type, given by {@code type}
     * @param name the store's name, as given with {@code Materialized.as}
     * @param type the kind of store expected, e.g. {@code QueryableStoreType.keyValueStore()}
     * @return a read-only view of the store's copies on this instance
     * @throws IllegalArgumentException if the topology has no queryable store {@code name}, or it is not
     *     of the kind {@code type} asks for
     */
    public <T> T store(String name, QueryableStoreType<T> type) {
        return store(StoreQuery.of(name, type));
    }

    /**
     * A read-only view of a store as {@link #store(String, QueryableStoreType)} gives it, from the copies
     * {@code query} chooses: with {@link StoreQuery#withStaleReads stale reads}, the standby copies this
     * instance keeps answer too, for the partitions whose active task runs elsewhere (behind by their lag:
     * {@link #localStoreLags()}).
     *
     * @param <T> the view's type, given by the query's store type
     * @param query the store's name and type, the partitions to read, and whether standby copies may answer
     * @return a read-only view of the chosen copies on this instance
     * @throws IllegalArgumentException if the topology has no queryable store of that name, or it is not of
     *     the kind the query's type asks for
     */
    public <T> T store(StoreQuery<T> query) {
        Objects.requireNonNull(query, "query");
        return serving.store(query);
    }

    /**
     * How far behind each readable copy of a queryable store on this instance is: by store name, by
     * partition. An active task's copy (running, not restoring) has lag 0, a standby copy the changelog
     * records it has not read yet as of its thread's last poll. Tells a stale read how stale it may be.
     * Thread-safe.
     *
     * @return the lag of each readable copy, by store name and then partition
     */
    public Map<String, Map<Integer, StoreLag>> localStoreLags() {
        return serving.local().lags();
    }

    /**
     * Which instance holds {@code key} of store {@code name} now, for routing a query there: the
     * instance whose task owns the key's partition, found as Kafka's default partitioner finds it
     * (murmur2 of the key serialized by {@code keySerializer}, which must be the serializer the store's
     * input was partitioned with). Known from the last rebalance, which lists every instance's {@code
     * application.server}; empty before this instance took part in one, or when the instance that holds
     * the key has no {@code application.server}. A rebalance can move the key at any time: a query sent
     * there may fail with a {@link StoreUnavailableException} ({@code NOT_LOCAL}) and should ask again.
     *
     * @param <K> the key type
     * @param name the store's name
     * @param key the key to locate
     * @param keySerializer the serializer the store's input was partitioned with
     * @return the instance that holds the key now, and its standbys; empty when not known
     * @throws IllegalArgumentException if the topology has no store {@code name}
     */
    public <K> Optional<KeyMetadata> metadataForKey(String name, K key, Serializer<K> keySerializer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerializer, "keySerializer");
        return serving.metadataForKey(name, key, keySerializer);
    }

    /**
     * Which instance holds {@code key} of store {@code name} now, as {@link #metadataForKey(String, Object,
     * Serializer)} says, for a store whose input was written with {@code partitioner} ({@code
     * Produced.withPartitioner}) rather than Kafka's default partitioner. It is asked with the store's
     * input topic, the key and a null value.
     *
     * @param <K> the key type
     * @param name the store's name
     * @param key the key to locate
     * @param partitioner the partitioner the store's input was written with
     * @return the instance that holds the key now, and its standbys; empty when not known
     * @throws IllegalArgumentException if the topology has no store {@code name}, or the partitioner
     *     returns a partition outside the input's
     */
    public <K> Optional<KeyMetadata> metadataForKey(String name, K key, StreamPartitioner<? super K, ?> partitioner) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(partitioner, "partitioner");
        return serving.metadataForKey(name, key, partitioner);
    }

    /**
     * Every instance of the application that has an {@code application.server}, as the last rebalance
     * placed them: the stores and input partitions of its tasks. Empty before this instance took part
     * in a rebalance.
     *
     * @return the instances with an {@code application.server}, in no particular order
     */
    public List<InstanceMetadata> allMetadata() {
        return serving.allMetadata();
    }

    /**
     * Every metric this instance reports now, with its level and tags (see {@link WeirMetric}): what JMX
     * shows under {@code io.weir.streams}. Empty before {@link #start()}.
     *
     * @return a snapshot of the metrics; their values are read when asked for
     */
    public List<WeirMetric> allMetrics() {
        return metrics.all();
    }

    /**
     * Tells {@code listener} of every metric this instance reports now, then of each one added or removed
     * until {@link #removeMetricsListener}: how a metrics library binds Weir's metrics as tasks come and go.
     *
     * @param listener told of the metrics added and removed
     */
    public void addMetricsListener(MetricsListener listener) {
        metrics.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Stops telling {@code listener} of metrics; it is not told of the removal of those it knows.
     *
     * @param listener a listener added with {@link #addMetricsListener}
     */
    public void removeMetricsListener(MetricsListener listener) {
        metrics.removeListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * The counters and gauges of every task on this instance, summed by {@code owner/metric} (the owner
     * an operator's or store's name, or {@code task-<id>}), with the standby copies' {@code standby/tasks}
     * and {@code standby/lag-records}: a quick total for tests and logs. Counters go on counting across a
     * task's moves here; for metrics by thread, task and store, see {@link #allMetrics()}.
     *
     * @return the totals by {@code owner/metric}; empty before the threads start
     */
    public Map<String, Long> metrics() {
        StreamThreads t;
        synchronized (this) {
            t = threads;
        }
        return t == null ? Map.of() : t.metricsSnapshot();
    }

    /**
     * The stream threads that run but make no progress: records processed and not committed for too long,
     * or their tasks' uncommitted work lost again and again (see {@link ThreadStall}). Empty while every
     * thread commits. A {@link State#RUNNING} instance with stalls writes nothing {@code read_committed}
     * readers see: health checks should treat it as down ({@code WeirHealthIndicator} does).
     *
     * @return the stalled threads, each with the reason and since when
     */
    public List<ThreadStall> stalls() {
        StreamThreads t;
        synchronized (this) {
            t = threads;
        }
        return t == null ? List.of() : t.stalls();
    }

    /**
     * This instance's stream threads and the tasks each runs now; empty before the threads start.
     *
     * @return a snapshot of the threads and their tasks
     */
    public List<ThreadMetadata> localThreads() {
        StreamThreads t;
        synchronized (this) {
            t = threads;
        }
        return t == null ? List.of() : t.metadata();
    }

    /**
     * Stops the instance without leaving the group: every thread commits what it processed, closes its
     * tasks (state stays on disk for the next start) and its clients. Waits at most {@code timeout}. A
     * static member keeps its tasks until its session times out (see {@link CloseOptions}).
     *
     * @param timeout the longest to wait for the threads to stop
     * @return whether everything stopped within the timeout
     */
    public boolean close(Duration timeout) {
        return close(CloseOptions.within(timeout));
    }

    /**
     * Stops the instance as {@link #close(Duration)} does, leaving the consumer group if {@code
     * options} say so: then its tasks move to the other instances at once.
     *
     * @param options how long to wait, and whether to leave the consumer group
     * @return whether everything stopped within the timeout
     */
    public boolean close(CloseOptions options) {
        Duration timeout = options.timeout();
        State before = state;
        if (before == State.NOT_RUNNING) {
            return true;
        }
        if (before != State.ERROR) {
            transition(State.PENDING_SHUTDOWN);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Thread start;
        synchronized (this) {
            start = starter;
        }
        boolean stopped = true;
        if (start != null && start != Thread.currentThread()) {
            // Still preparing topics (e.g. waiting for an unreachable Kafka): stop waiting.
            start.interrupt();
            try {
                start.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stopped = !start.isAlive();
        }
        StreamThreads t;
        // Read after the start thread ended: it may have created the threads meanwhile.
        synchronized (this) {
            t = threads;
        }
        stopped &= t == null
                || t.stopAll(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), options.leaveGroup());
        GlobalTables g;
        synchronized (this) {
            g = globals;
            globals = null;
        }
        if (g != null) {
            serving.unhostGlobalTables();
            // After the stream threads: their tasks read the global stores until they close.
            g.close(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
        // After the stream threads: they may still be taking stores from it.
        stopped &= preopened.close(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        if (before != State.ERROR) {
            transition(State.NOT_RUNNING);
        }
        metrics.removeListener(jmx);
        jmx.close();
        if (stopped) {
            // Every store is closed: the objects they shared can go (left to the process if a store may
            // still be open, as closing them under an open store would crash it).
            rocksDb.close();
            // Only once nothing of this instance writes there any more may the next one take the directory.
            stateDirectory.close();
        }
        return stopped;
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(60));
    }
}
