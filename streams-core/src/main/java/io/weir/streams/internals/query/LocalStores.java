package io.weir.streams.internals.query;

import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.StoreHosting;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.state.StoreLag;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.ToLongFunction;

/**
 * The queryable stores this instance holds now, by store name and task: what {@code WeirStreams.store}
 * reads. An active task's stores join when the task opens them (restoring, so not yet readable), become
 * readable when the task starts processing, and leave before they are closed. A standby copy's stores
 * are readable at once, by stale reads only, with the lag its thread reports. Thread-safe: stream threads
 * change it, query threads read it.
 */
public final class LocalStores {

    private final Map<String, Map<TaskId, HostedStore>> active = new ConcurrentHashMap<>();
    private final Map<String, Map<TaskId, HostedStore>> standbys = new ConcurrentHashMap<>();

    /** The hosting of one task's stores, active or a standby copy; used by that task's thread only. */
    public final class TaskHosting implements StoreHosting {
        private final TaskId task;
        private final boolean standby;
        private final Set<String> followed;
        private final ToLongFunction<String> lagOf;
        private final List<HostedStore> hosted = new ArrayList<>();

        private TaskHosting(TaskId task, boolean standby, Set<String> followed, ToLongFunction<String> lagOf) {
            this.task = task;
            this.standby = standby;
            this.followed = followed;
            this.lagOf = lagOf;
        }

        private Map<String, Map<TaskId, HostedStore>> map() {
            return standby ? standbys : active;
        }

        @Override
        public void host(String name, BytesStore store) {
            if (standby && !followed.contains(name)) {
                return;
            }
            HostedStore h = new HostedStore(name, task, store, standby, () -> lagOf.applyAsLong(name));
            if (standby) {
                h.ready();
            }
            hosted.add(h);
            map().computeIfAbsent(name, n -> new ConcurrentSkipListMap<>()).put(task, h);
        }

        @Override
        public void ready() {
            hosted.forEach(HostedStore::ready);
        }

        @Override
        public void close() {
            for (HostedStore h : hosted) {
                h.close();
                Map<TaskId, HostedStore> byTask = map().get(h.name());
                if (byTask != null) {
                    byTask.remove(task, h);
                }
            }
            hosted.clear();
        }
    }

    /** The hosting of active task {@code task}'s stores. */
    public TaskHosting forTask(TaskId task) {
        return new TaskHosting(task, false, Set.of(), name -> 0);
    }

    /**
     * The hosting of the stores of a standby copy of {@code task}.
     *
     * @param followed the stores the copy keeps up to date: only those are offered (a copy does not follow
     *     a source table's topic, so that store would never move on)
     * @param lagOf the changelog records the copy's store of a name has not read yet; callable from any
     *     thread
     */
    public TaskHosting forStandby(TaskId task, Set<String> followed, ToLongFunction<String> lagOf) {
        return new TaskHosting(task, true, Set.copyOf(followed), lagOf);
    }

    /** The copies of store {@code name} this instance holds now, in task order; standby copies too if asked. */
    List<HostedStore> hosted(String name, boolean withStandbys) {
        Map<TaskId, HostedStore> byTask = new TreeMap<>();
        if (withStandbys) {
            byTask.putAll(standbys.getOrDefault(name, Map.of()));
        }
        // An active copy wins: a task moving here from a standby copy may briefly be in both.
        byTask.putAll(active.getOrDefault(name, Map.of()));
        return List.copyOf(byTask.values());
    }

    /** Every readable copy: by store name, by partition, its lag. */
    public Map<String, Map<Integer, StoreLag>> lags() {
        Map<String, Map<Integer, StoreLag>> out = new TreeMap<>();
        for (Map<String, Map<TaskId, HostedStore>> copies : List.of(standbys, active)) {
            copies.forEach((name, byTask) -> byTask.forEach((task, h) -> {
                if (!h.restoring()) {
                    out.computeIfAbsent(name, n -> new TreeMap<>())
                            .put(task.partition(), new StoreLag(h.standby(), h.lag()));
                }
            }));
        }
        return out;
    }
}
