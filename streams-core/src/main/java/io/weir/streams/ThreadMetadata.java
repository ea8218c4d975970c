package io.weir.streams;

import java.util.Set;

/**
 * What one stream thread of an instance is doing, as seen by {@link WeirStreams#localThreads()}.
 *
 * @param name        the thread's name, {@code weir-<application.id>-<process id prefix>-thread-<n>} (with
 *                    {@code -g<k>} once replaced {@code k} times)
 * @param activeTasks the tasks it runs now, as {@code <subtopology>_<partition>} (the names of their
 *                    state directories); empty while it rebalances or restores
 */
public record ThreadMetadata(String name, Set<String> activeTasks) {

    public ThreadMetadata {
        activeTasks = Set.copyOf(activeTasks);
    }
}
