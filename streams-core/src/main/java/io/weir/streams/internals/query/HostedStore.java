package io.weir.streams.internals.query;

import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One task's copy of a queryable store, as queries see it: an active task's committed state, the {@link
 * BytesStore} under the task's write-back cache, which receives a commit's writes only once the commit
 * succeeded; or a standby copy, what it read of the changelogs ({@code read_committed}).
 *
 * <p>Thread safety: queries read on their own threads, under the read lock, one bounded read at a time
 * (a key, or one batch of a scan: never while user code runs); the task's thread marks the store ready
 * once restored and, before it closes the store, takes the write lock, so no query reads a closed store (a
 * close waits for the one read under way, not for a scan). A restoring store is never read: the restore
 * writes it on another thread, and its content is not yet the committed state.
 */
final class HostedStore {

    private final String name;
    private final TaskId task;
    private final BytesStore store;
    private final boolean standby;
    private final LongSupplier lag;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean restoring = true;
    private boolean closed;

    /** @param lag the changelog records the copy has not read yet; 0 for an active task's */
    HostedStore(String name, TaskId task, BytesStore store, boolean standby, LongSupplier lag) {
        this.name = name;
        this.task = task;
        this.store = store;
        this.standby = standby;
        this.lag = lag;
    }

    /** Whether this is a standby copy, read by stale reads only. */
    boolean standby() {
        return standby;
    }

    long lag() {
        return lag.getAsLong();
    }

    String name() {
        return name;
    }

    TaskId task() {
        return task;
    }

    boolean restoring() {
        return restoring;
    }

    /** The store is restored: queries may read it. */
    void ready() {
        restoring = false;
    }

    /** Waits for the reads under way, then refuses every later one. */
    void close() {
        lock.writeLock().lock();
        try {
            closed = true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Takes the read lock, or throws if the store cannot be read; the caller must {@link #unlock()}. */
    private BytesStore lock() {
        lock.readLock().lock();
        if (closed || restoring) {
            lock.readLock().unlock();
            throw unavailable();
        }
        return store;
    }

    private void unlock() {
        lock.readLock().unlock();
    }

    /** {@code read} applied to the store under the read lock. */
    <T> T read(Function<BytesStore, T> read) {
        BytesStore locked = lock();
        try {
            return read.apply(locked);
        } finally {
            unlock();
        }
    }

    StoreUnavailableException unavailable() {
        return restoring && !closed
                ? new StoreUnavailableException(
                        name, Reason.RESTORING, "Store '" + name + "' of task " + task + " is restoring; try again")
                : new StoreUnavailableException(
                        name,
                        Reason.NOT_LOCAL,
                        "Store '" + name + "' of task " + task + " moved away from this instance");
    }
}
