package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A stream thread's own metrics: its polls, the records it processed and its commits (timers), how
 * many tasks it runs, restores and keeps copies of, and what its tasks' caches hold. Registered when made; {@link #close()} withdraws them.
 * The timers are written by the thread only.
 */
public final class ThreadMetrics implements AutoCloseable {

    private final MetricGroup group;
    private final List<RegisteredMetric> registered = new ArrayList<>();
    private final Timer poll = new Timer();
    private final Timer process = new Timer();
    private final Timer commit = new Timer();
    private final Counter taskLosses = new Counter();
    private final Counter batchCommits = new Counter();
    private final Counter boundFlushes = new Counter();

    /**
     * @param running, restoring, standbys the thread's task counts, readable from any thread
     * @param cacheUsed the bytes its tasks' caches hold, readable from any thread
     * @param protocolVersion the group protocol version its group uses, readable from any thread
     */
    public ThreadMetrics(
            MetricGroup group,
            LongSupplier running,
            LongSupplier restoring,
            LongSupplier standbys,
            LongSupplier cacheUsed,
            LongSupplier protocolVersion) {
        this.group = group;
        registered.add(group.timer(WeirMetrics.POLL, poll));
        registered.add(group.timer(WeirMetrics.PROCESS, process));
        registered.add(group.timer(WeirMetrics.COMMIT, commit));
        registered.add(group.counter(WeirMetrics.TASK_LOSSES, taskLosses));
        registered.add(group.counter(WeirMetrics.BATCH_COMMITS, batchCommits));
        registered.add(group.counter(WeirMetrics.ROCKSDB_BOUND_FLUSHES, boundFlushes));
        registered.add(group.gauge(WeirMetrics.TASKS_RUNNING, running::getAsLong));
        registered.add(group.gauge(WeirMetrics.TASKS_RESTORING, restoring::getAsLong));
        registered.add(group.gauge(WeirMetrics.STANDBY_TASKS, standbys::getAsLong));
        registered.add(group.gauge(WeirMetrics.CACHE_USED_BYTES, cacheUsed::getAsLong));
        registered.add(group.gauge(WeirMetrics.GROUP_PROTOCOL_VERSION, protocolVersion::getAsLong));
    }

    /** The thread's group, under which its tasks' groups go. */
    public MetricGroup group() {
        return group;
    }

    public Timer poll() {
        return poll;
    }

    public Timer process() {
        return process;
    }

    public Timer commit() {
        return commit;
    }

    public Counter taskLosses() {
        return taskLosses;
    }

    public Counter batchCommits() {
        return batchCommits;
    }

    public Counter boundFlushes() {
        return boundFlushes;
    }

    @Override
    public void close() {
        registered.forEach(group::remove);
        registered.clear();
    }
}
