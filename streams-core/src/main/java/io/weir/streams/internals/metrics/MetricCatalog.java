package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric.Kind;
import io.weir.streams.WeirMetric.Level;
import io.weir.streams.WeirMetrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every metric Weir reports, once: the registry refuses a name not listed here, and the operating guide's
 * metric reference is written from this list ({@code MetricCatalogTest}), so the guide, JMX and Micrometer
 * cannot disagree.
 */
public final class MetricCatalog {

    private MetricCatalog() {}

    private static final Map<Level, Map<String, MetricDefinition>> BY_LEVEL = new LinkedHashMap<>();

    static {
        application(
                WeirMetrics.STATE,
                Kind.GAUGE,
                "The instance's state: 0 created, 1 rebalancing, 2 running, "
                        + "3 pending shutdown, 4 not running, 5 error.");
        application(WeirMetrics.ALIVE_THREADS, Kind.GAUGE, "Stream threads running now.");
        application(
                WeirMetrics.ROCKSDB_MEMORY_USED_BYTES,
                Kind.GAUGE,
                "Bytes of the shared RocksDB cache in use: data, index and filter blocks, and the memtables "
                        + "charged to it. Bounded by rocksdb.memory.max.bytes (only registered with it).");
        application(
                WeirMetrics.ROCKSDB_MEMORY_PINNED_BYTES,
                Kind.GAUGE,
                "Bytes of the shared RocksDB cache pinned by open tables and iterators, which it cannot evict "
                        + "(only registered with rocksdb.memory.max.bytes).");
        application(
                WeirMetrics.ROCKSDB_OPEN_STORES,
                Kind.GAUGE,
                "RocksDB stores open in the instance (active, standby and restoring tasks). Each holds about "
                        + "0.2 MiB of native memory of its own, outside rocksdb.memory.max.bytes.");
        application(
                WeirMetrics.THREAD_REPLACEMENTS,
                Kind.COUNTER,
                "Stream threads replaced after a failure (StreamsUncaughtExceptionHandler REPLACE_THREAD).");
        application(
                WeirMetrics.STATE_DIRECTORIES_DELETED,
                Kind.COUNTER,
                "Task state directories deleted: of tasks the instance held no more for state.cleanup.delay.ms, "
                        + "and at start those of sub-topologies the topology does not have.");
        application(
                WeirMetrics.STALLED_THREADS,
                Kind.GAUGE,
                "Stream threads that have commits to make but have not made one for too long (WeirStreams.stalls()).");

        thread(WeirMetrics.POLL, Kind.TIMER, "Polls of the group consumer, and the time spent in them.");
        thread(
                WeirMetrics.PROCESS,
                Kind.TIMER,
                "Records processed by the thread's tasks, and the time spent on them "
                        + "(timed per polled batch of a partition).");
        thread(
                WeirMetrics.COMMIT,
                Kind.TIMER,
                "Commits of the thread's tasks (one transaction under exactly-once), " + "and their duration.");
        thread(WeirMetrics.TASKS_RUNNING, Kind.GAUGE, "Active tasks processing records.");
        thread(
                WeirMetrics.TASK_LOSSES,
                Kind.COUNTER,
                "Times the thread lost its tasks with their uncommitted work (a fenced or timed-out transaction, a "
                        + "missed rebalance); the work is done again.");
        thread(
                WeirMetrics.BATCH_COMMITS,
                Kind.COUNTER,
                "Commits made inside a poll's records because the open transaction (or the poll) had lived half "
                        + "its timeout.");
        thread(WeirMetrics.TASKS_RESTORING, Kind.GAUGE, "Active tasks restoring their stores before they process.");
        thread(WeirMetrics.STANDBY_TASKS, Kind.GAUGE, "Standby copies the thread keeps.");
        thread(
                WeirMetrics.GROUP_PROTOCOL_VERSION,
                Kind.GAUGE,
                "The Weir group protocol version the group uses: the lowest any member speaks. It rises when the "
                        + "last member of an older release leaves: a rolling upgrade is complete when every thread "
                        + "reports the new release's version.");
        thread(
                WeirMetrics.ROCKSDB_BOUND_FLUSHES,
                Kind.COUNTER,
                "Stores whose memtables the thread flushed because the instance's RocksDB memory was over "
                        + "rocksdb.memory.max.bytes; a high rate means the bound is small for the stores' writes.");
        thread(
                WeirMetrics.CACHE_USED_BYTES,
                Kind.GAUGE,
                "Bytes the write-back caches of the thread's tasks hold, written and read entries together; "
                        + "bounded by the thread's part of statestore.cache.max.bytes.");

        task(
                WeirMetrics.PROCESS,
                Kind.TIMER,
                "Records the task processed, and the time spent on them " + "(timed per polled batch).");
        task(
                WeirMetrics.WATERMARK,
                Kind.GAUGE,
                "The task's watermark, in ms since the epoch; -1 before its first watermark.");
        task(
                WeirMetrics.WATERMARK_LAG_MS,
                Kind.GAUGE,
                "How far the task's watermark trails the wall clock, in ms; " + "-1 before its first watermark.");
        task(
                WeirMetrics.STANDBY_LAG_RECORDS,
                Kind.GAUGE,
                "For a standby copy, the changelog records it has not read yet.");

        node(WeirMetrics.RECORDS_CONSUMED, "Input records a source read.");
        node(WeirMetrics.RECORDS_PRODUCED, "Records a sink sent to its topic.");
        node(WeirMetrics.RECORDS_SKIPPED, "Input records a source skipped: key, value or event time unreadable.");
        node(WeirMetrics.RECORDS_DEAD_LETTERED, "Records sent to a dead-letter topic.");
        node(WeirMetrics.RECORDS_PRODUCTION_SKIPPED, "Records a sink could not produce and its handler skipped.");
        node(WeirMetrics.RECORDS_PROCESSING_SKIPPED, "Records whose user code threw and the handler skipped.");
        node(
                WeirMetrics.NULL_KEY_RECORDS_SKIPPED,
                "Records with a null key that a keyed operator skipped: an aggregation, a table read from a topic, a "
                        + "deduplication, a stream-stream join, a keyed processor.");
        node(
                WeirMetrics.LATE_RECORDS_ADDED,
                "(record, window) pairs added after the watermark passed the window's end.");
        node(
                WeirMetrics.LATE_RECORDS_DROPPED,
                "Records refused as late: per window past a windowed aggregation's allowed lateness; or too old "
                        + "for a deduplication, a stream-stream join, an as-of or aligned stream-table join, or a "
                        + "versioned table.");
        node(WeirMetrics.FUTURE_RECORDS_DROPPED, "Records refused: event time beyond the maximum future skew.");
        node(WeirMetrics.SIDE_OUTPUT_RECORDS, "Records written to a late-data side-output topic.");
        node(
                WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED,
                "Late-data or dead-letter records their topic could not take even with key and value cut.");
        node(WeirMetrics.PANES_EMITTED, "Window results emitted, of any timing.");
        node(WeirMetrics.EARLY_PANES, "Early window results emitted.");
        node(WeirMetrics.ON_TIME_PANES, "On-time window results emitted.");
        node(WeirMetrics.LATE_PANES, "Late window results emitted.");
        node(WeirMetrics.RETRACTIONS, "Retractions emitted.");
        node(WeirMetrics.SESSIONS_MERGED, "Session windows merged into another session.");
        node(WeirMetrics.TABLE_CHANGES_EMITTED, "Changes a table operator sent downstream.");
        node(WeirMetrics.TOMBSTONES_FOR_ABSENT_KEYS, "Tombstones read for keys the table did not hold.");
        node(WeirMetrics.ROWS_EXPIRED, "Table rows deleted because their time-to-live passed.");
        node(WeirMetrics.NULL_JOIN_KEYS, "Records a join could not look up: null join key.");
        node(WeirMetrics.JOIN_MISSES, "Records a join found no partner for.");
        node(WeirMetrics.DUPLICATES_DROPPED, "Records a deduplication dropped as repeats.");
        node(WeirMetrics.NULL_ID_RECORDS_PASSED, "Records a deduplication let pass: null id.");
        node(WeirMetrics.TIMERS_FIRED, "Timers of a keyed processor that fired.");
        define(
                WeirMetrics.JOIN_BUFFERED_RECORDS,
                Level.NODE,
                Kind.GAUGE,
                "Records a join holds until the " + "watermark lets it decide them.");
        define(WeirMetrics.DEDUP_IDS, Level.NODE, Kind.GAUGE, "Record ids a deduplication remembers now.");
        define(WeirMetrics.OPEN_WINDOWS, Level.NODE, Kind.GAUGE, "Windows holding state now.");

        store(WeirMetrics.EXPIRED_PUTS_DROPPED, Kind.COUNTER, "Puts into a window store past its retention, dropped.");
        store(WeirMetrics.CACHE_HITS, Kind.COUNTER, "Reads the store's cache answered.");
        store(WeirMetrics.CACHE_MISSES, Kind.COUNTER, "Reads that went past the cache to the store.");
        store(
                WeirMetrics.CACHE_HIT_RATIO,
                Kind.GAUGE,
                "Cache hits over all reads since the task opened; " + "-1 before the first read.");
        store(
                WeirMetrics.STATE_SIZE_BYTES,
                Kind.GAUGE,
                "The store's estimated size in bytes (live data and " + "memtables), as of the last commit.");
        store(WeirMetrics.STATE_ENTRIES, Kind.GAUGE, "The store's estimated number of entries, as of the last commit.");
        store(WeirMetrics.RECORDS_RESTORED, Kind.COUNTER, "Changelog records replayed into the store.");
        store(
                WeirMetrics.STORE_REBUILDS,
                Kind.COUNTER,
                "Times the store was rebuilt from its changelog: its files were found corrupt (and moved aside), or "
                        + "its changelog was recreated.");
        store(
                WeirMetrics.RESTORE_REMAINING_RECORDS,
                Kind.GAUGE,
                "Changelog records left to replay before " + "the task can run; 0 once restored.");
    }

    private static void application(String name, Kind kind, String description) {
        define(name, Level.APPLICATION, kind, description);
    }

    private static void thread(String name, Kind kind, String description) {
        define(name, Level.THREAD, kind, description);
    }

    private static void task(String name, Kind kind, String description) {
        define(name, Level.TASK, kind, description);
    }

    private static void node(String name, String description) {
        define(name, Level.NODE, Kind.COUNTER, description);
    }

    private static void store(String name, Kind kind, String description) {
        define(name, Level.STORE, kind, description);
    }

    private static void define(String name, Level level, Kind kind, String description) {
        BY_LEVEL.computeIfAbsent(level, l -> new LinkedHashMap<>())
                .put(name, new MetricDefinition(name, level, kind, description));
    }

    /**
     * The definition of {@code name} at {@code level}.
     *
     * @throws IllegalArgumentException if Weir defines no such metric
     */
    public static MetricDefinition get(Level level, String name) {
        MetricDefinition d = BY_LEVEL.getOrDefault(level, Map.of()).get(name);
        if (d == null) {
            throw new IllegalArgumentException("No " + level + " metric '" + name + "' is defined");
        }
        return d;
    }

    /** The level of an operator's or store's metric {@code name}: operators and stores share no names. */
    public static Level operatorOrStore(String name) {
        return BY_LEVEL.getOrDefault(Level.STORE, Map.of()).containsKey(name) ? Level.STORE : Level.NODE;
    }

    /** Every definition, by level, in the order above. */
    public static List<MetricDefinition> all() {
        List<MetricDefinition> all = new ArrayList<>();
        BY_LEVEL.values().forEach(m -> all.addAll(m.values()));
        return Collections.unmodifiableList(all);
    }
}
