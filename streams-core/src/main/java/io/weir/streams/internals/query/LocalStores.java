package io.weir.streams.internals.query;

import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.StoreHosting;
import io.weir.streams.internals.task.TaskId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The queryable stores this instance holds now, by store name and task: what {@code WeirStreams.store}
 * reads. A task's stores join when the task opens them (restoring, so not yet readable), become
 * readable when the task starts processing, and leave before they are closed. Thread-safe: stream
 * threads change it, query threads read it.
 */
public final class LocalStores {

    private final Map<String, Map<TaskId, HostedStore>> stores = new ConcurrentHashMap<>();

    /** The hosting of one task's stores; used by that task's thread only. */
    public final class TaskHosting implements StoreHosting {
        private final TaskId task;
        private final List<HostedStore> hosted = new ArrayList<>();

        private TaskHosting(TaskId task) {
            this.task = task;
        }

        @Override
        public void host(String name, BytesStore store) {
            HostedStore h = new HostedStore(name, task, store);
            hosted.add(h);
            stores.computeIfAbsent(name, n -> new ConcurrentSkipListMap<>()).put(task, h);
        }

        @Override
        public void ready() {
            hosted.forEach(HostedStore::ready);
        }

        @Override
        public void close() {
            for (HostedStore h : hosted) {
                h.close();
                Map<TaskId, HostedStore> byTask = stores.get(h.name());
                if (byTask != null) {
                    byTask.remove(task, h);
                }
            }
            hosted.clear();
        }
    }

    /** The hosting of {@code task}'s stores. */
    public TaskHosting forTask(TaskId task) {
        return new TaskHosting(task);
    }

    /** The copies of store {@code name} this instance holds now, in task order. */
    List<HostedStore> hosted(String name) {
        Map<TaskId, HostedStore> byTask = stores.get(name);
        return byTask == null ? List.of() : List.copyOf(byTask.values());
    }
}
