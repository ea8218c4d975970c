package io.weir.streams;

import java.util.Set;

/**
 * What one stream thread of an instance is doing, as seen by {@link WeirStreams#localThreads()}.
 *
 * @param name        the thread's name, {@code weir-<application.id>-<process id prefix>-thread-<n>} (with
 *                    {@code -g<k>} once replaced {@code k} times)
 * @param activeTasks the tasks it runs now, as {@code <subtopology>_<partition>} (the names of their
 *                    state directories); a task it restores is not listed until it runs
 * @param standbyTasks the tasks it keeps standby copies of ({@link StreamsConfig#NUM_STANDBY_REPLICAS}),
 *                    named the same way
 */
public record ThreadMetadata(String name, Set<String> activeTasks, Set<String> standbyTasks) {

    /**
     * Copies the task sets, so that the record is immutable.
     *
     * @param name the thread's name
     * @param activeTasks the tasks it runs now
     * @param standbyTasks the tasks it keeps standby copies of
     */
    public ThreadMetadata {
        activeTasks = Set.copyOf(activeTasks);
        standbyTasks = Set.copyOf(standbyTasks);
    }
}
