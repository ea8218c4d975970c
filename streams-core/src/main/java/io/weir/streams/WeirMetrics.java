package io.weir.streams;

/**
 * Names of the metrics Weir reports, per instance, stream thread, task, operator (processor node) and
 * store (see {@link WeirMetric.Level}). Every record that is skipped, dropped or diverted is counted under
 * one of these names: nothing disappears unseen. The operating guide lists them with their JMX attributes
 * and Micrometer meters.
 */
public final class WeirMetrics {

    private WeirMetrics() {}

    /** Input records read by a source node. */
    public static final String RECORDS_CONSUMED = "records-consumed";
    /** Input records a source skipped because their key, value or event time could not be read. */
    public static final String RECORDS_SKIPPED = "records-skipped";
    /** Records a source could not read, an operator could not process, or a sink could not produce, sent to a dead-letter topic. */
    public static final String RECORDS_DEAD_LETTERED = "records-dead-lettered";
    /** Records a sink could not produce (serializer failure, too large) that its error handler chose to skip. */
    public static final String RECORDS_PRODUCTION_SKIPPED = "records-production-skipped";
    /** Records an operator skipped because its user code threw and the processing error handler chose to continue. */
    public static final String RECORDS_PROCESSING_SKIPPED = "records-processing-skipped";
    /**
     * Records with a null key that a keyed operator skipped: an aggregation (windowed or not), a table read
     * from a topic, a deduplication, a stream–stream join, a keyed processor.
     */
    public static final String NULL_KEY_RECORDS_SKIPPED = "null-key-records-skipped";
    /** (record, window) pairs added although the watermark had passed the window's end (each makes a late change). */
    public static final String LATE_RECORDS_ADDED = "late-records-added";
    /**
     * Records refused as late: (record, window) pairs refused by a windowed aggregation because the window
     * was past its allowed lateness; records a deduplication or a stream–stream join refused because the
     * watermark had passed their event time plus the allowed lateness; records an as-of or aligned
     * stream–table join refused as older than the versioned table's history; updates a versioned table
     * refused as older than its history.
     */
    public static final String LATE_RECORDS_DROPPED = "late-records-dropped";
    /** Records an event-time operator refused because their event time was beyond the maximum future skew. */
    public static final String FUTURE_RECORDS_DROPPED = "future-records-dropped";
    /** Records written to a late-data side-output topic (late and future records alike). */
    public static final String SIDE_OUTPUT_RECORDS = "side-output-records";

    /** Late-data or dead-letter records their topic could not take even with their key and value cut. */
    public static final String SIDE_OUTPUT_RECORDS_DROPPED = "side-output-records-dropped";
    /**
     * Times a thread lost its tasks with their uncommitted work (a fenced or timed-out transaction, a missed
     * rebalance); the work is done again.
     */
    public static final String TASK_LOSSES = "task-losses";
    /** Commits made within a poll's records because the open transaction (or the poll) had lived half its timeout. */
    public static final String BATCH_COMMITS = "batch-commits";
    /** Stream threads replaced after a failure ({@code REPLACE_THREAD}). */
    public static final String THREAD_REPLACEMENTS = "thread-replacements";
    /**
     * Task state directories the instance deleted: of tasks it held no more for {@code state.cleanup.delay.ms},
     * and at start those of sub-topologies the topology does not have.
     */
    public static final String STATE_DIRECTORIES_DELETED = "state-directories-deleted";
    /**
     * Stream threads that have work to commit but have not committed for too long (a gauge; see {@link
     * WeirStreams#stalls()}).
     */
    public static final String STALLED_THREADS = "stalled-threads";
    /** Panes (window results) emitted, of any timing. */
    public static final String PANES_EMITTED = "panes-emitted";
    /** Early panes emitted (early firings by processing time or record count). */
    public static final String EARLY_PANES = "early-panes";
    /** On-time panes emitted. */
    public static final String ON_TIME_PANES = "on-time-panes";
    /** Late panes emitted. */
    public static final String LATE_PANES = "late-panes";
    /** Retractions emitted (refinement ACCUMULATING_AND_RETRACTING); not counted as panes. */
    public static final String RETRACTIONS = "retractions-emitted";
    /** Session windows merged away into another session by a record that overlapped several. */
    public static final String SESSIONS_MERGED = "sessions-merged";
    /** Changes a table operator sent downstream (each carries the old and the new value of a row). */
    public static final String TABLE_CHANGES_EMITTED = "table-changes-emitted";
    /** Tombstones read into a table that held no row for their key: nothing to delete. */
    public static final String TOMBSTONES_FOR_ABSENT_KEYS = "tombstones-for-absent-keys";
    /** Table rows deleted because their time-to-live passed. */
    public static final String ROWS_EXPIRED = "rows-expired";
    /** Records a join could not look up because their join key was null (an inner join drops them). */
    public static final String NULL_JOIN_KEYS = "null-join-keys";
    /** Records a join found no partner for (an inner join drops them, a left join joins them with null). */
    public static final String JOIN_MISSES = "join-misses";
    /**
     * Gauge: stream records an aligned stream–table join holds until the table's watermark reaches their
     * event time; for a stream–stream join, the records its two buffers hold until their join windows close.
     */
    public static final String JOIN_BUFFERED_RECORDS = "join-buffered-records";
    /** Records a deduplication dropped as repeats of a record that passed. */
    public static final String DUPLICATES_DROPPED = "duplicates-dropped";
    /** Records a deduplication let pass because their id was null. */
    public static final String NULL_ID_RECORDS_PASSED = "null-id-records-passed";
    /** Gauge: the records a deduplication remembers now (one per record that passed, until it expires). */
    public static final String DEDUP_IDS = "dedup-ids";
    /** Timers of a keyed processor that fired, in either time domain. */
    public static final String TIMERS_FIRED = "timers-fired";
    /**
     * Puts into a keyed processor's window store at a time its retention had already passed, dropped
     * (reported under the store's name).
     */
    public static final String EXPIRED_PUTS_DROPPED = "expired-puts-dropped";
    /** Windows currently holding state (a gauge). */
    public static final String OPEN_WINDOWS = "open-windows";
    /**
     * How far a task's watermark trails its processing time (the wall clock), in ms: the wait that the
     * watermark delay and the slowest input partition add before windows fire (a gauge, reported under
     * the node {@code task-<id>}; -1 before the task's first watermark). Lag that keeps growing while
     * records arrive means a partition holds the watermark back or the input is replayed from the past.
     */
    public static final String WATERMARK_LAG_MS = "watermark-lag-ms";

    /** The instance's state as a number (a gauge): 0 created, 1 rebalancing, 2 running, 3 pending shutdown, 4 not running, 5 error. */
    public static final String STATE = "state";
    /** Stream threads running now (a gauge). */
    public static final String ALIVE_THREADS = "alive-threads";
    /** Polls of a thread's group consumer (a timer). */
    public static final String POLL = "poll";
    /**
     * Records processed, by a thread or a task (a timer). Time is taken per polled batch of a partition, not
     * per record, so its maximum is the longest per-record average of one batch.
     */
    public static final String PROCESS = "process";
    /** Commits of a thread's tasks, one transaction each under exactly-once (a timer). */
    public static final String COMMIT = "commit";
    /** A thread's active tasks processing records (a gauge). */
    public static final String TASKS_RUNNING = "tasks-running";
    /** A thread's active tasks restoring their stores (a gauge). */
    public static final String TASKS_RESTORING = "tasks-restoring";
    /**
     * The Weir group protocol version the thread's group uses (a gauge): the lowest any member speaks; it
     * rises when the last member of an older release leaves, so it tells when a rolling upgrade is complete.
     */
    public static final String GROUP_PROTOCOL_VERSION = "group-protocol-version";
    /** A thread's standby copies (a gauge). */
    public static final String STANDBY_TASKS = "standby-tasks";
    /**
     * Bytes the write-back caches of a thread's tasks hold, written and read entries together (a gauge); its
     * bound is the thread's part of {@code statestore.cache.max.bytes}.
     */
    public static final String CACHE_USED_BYTES = "cache-used-bytes";
    /**
     * Bytes of the instance's shared RocksDB cache in use, blocks and the memtables charged to it (a gauge;
     * only with {@code rocksdb.memory.max.bytes}, its bound).
     */
    public static final String ROCKSDB_MEMORY_USED_BYTES = "rocksdb-memory-used-bytes";
    /**
     * The part of {@link #ROCKSDB_MEMORY_USED_BYTES} pinned by open tables and iterators, which the cache cannot
     * evict (a gauge; only with {@code rocksdb.memory.max.bytes}).
     */
    public static final String ROCKSDB_MEMORY_PINNED_BYTES = "rocksdb-memory-pinned-bytes";
    /**
     * RocksDB stores open in the instance: of active tasks, standby copies and tasks restoring (a gauge). Each
     * holds about 0.2 MiB of native memory of its own, outside {@code rocksdb.memory.max.bytes}.
     */
    public static final String ROCKSDB_OPEN_STORES = "rocksdb-open-stores";
    /**
     * Memtables of a thread's stores flushed because the instance's RocksDB memory was over {@code
     * rocksdb.memory.max.bytes} (RocksDB flushes only stores being written; quiet ones are flushed here).
     */
    public static final String ROCKSDB_BOUND_FLUSHES = "rocksdb-bound-flushes";
    /** A task's watermark in ms since the epoch (a gauge); -1 before its first watermark. */
    public static final String WATERMARK = "watermark";
    /** For a standby copy of a task, the changelog records it has not read yet (a gauge). */
    public static final String STANDBY_LAG_RECORDS = "standby-lag-records";
    /** Records a sink sent to its topic. */
    public static final String RECORDS_PRODUCED = "records-produced";
    /** Reads of a store that its cache answered. */
    public static final String CACHE_HITS = "cache-hits";
    /** Reads of a store that went past its cache. */
    public static final String CACHE_MISSES = "cache-misses";
    /** A store cache's hits over all its reads since the task opened (a gauge, 0 to 1; -1 before any read). */
    public static final String CACHE_HIT_RATIO = "cache-hit-ratio";
    /** A store's estimated size in bytes as of the task's last commit (a gauge). */
    public static final String STATE_SIZE_BYTES = "state-size-bytes";
    /** A store's estimated number of entries as of the task's last commit (a gauge). */
    public static final String STATE_ENTRIES = "state-entries";
    /** Changelog records replayed into a store while its task restored. */
    public static final String RECORDS_RESTORED = "records-restored";

    /** Times a store was rebuilt from its changelog: its files were found corrupt, or its changelog was recreated. */
    public static final String STORE_REBUILDS = "store-rebuilds";
    /** Changelog records a restoring store has left to replay (a gauge; 0 once restored). */
    public static final String RESTORE_REMAINING_RECORDS = "restore-remaining-records";
}
