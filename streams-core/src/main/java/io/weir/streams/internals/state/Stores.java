package io.weir.streams.internals.state;

import io.weir.streams.state.ReadOnlyKeyValueStore;

/**
 * The state a processor of a task reads and writes: the task's own stores, each behind its write-back
 * cache, and the instance's global tables, read only. The task owns them all; a processor closes none.
 * Single-threaded, like the task.
 */
public interface Stores {

    /**
     * The cache in front of the task's store {@code name}.
     *
     * @throws IllegalArgumentException if the task has no store of that name
     */
    WriteBackCache cache(String name);

    /**
     * A read-only view of the global table in store {@code name}, which every task of the instance reads.
     *
     * @throws IllegalArgumentException if the topology has no global table of that name
     */
    ReadOnlyKeyValueStore<?, ?> globalTable(String name);
}
