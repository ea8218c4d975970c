package io.weir.streams.internals.runtime;

import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state an instance has on disk for tasks that none of its threads holds, found when it started
 * ({@link PreopenedStores}), with the changelog records each task's state lacks: what a member reports
 * beside its standby copies when it joins. The leader then counts the instance as keeping a copy of those
 * tasks, so a task whose state here is caught up comes back to it at once instead of after a warm-up: an
 * instance restarted after leaving the group (a rolling restart that hands tasks to their standbys), or
 * any restart under dynamic membership. Kafka Streams reports its task directories' offsets likewise.
 *
 * <p>A task counts only when each of its stores that a restore reads (a changelog of its own) was found on
 * disk with its changelog offset; a store kept in memory or restored from its source topic makes the task
 * count as absent. The lag is the sum over those changelogs of their committed end ({@code read_committed})
 * minus the offset stored. If the brokers do not answer ({@link ChangelogSizes#ends}), nothing is reported
 * and the leader places as if the state were not there.
 */
final class StateOnDisk {

    private final PreopenedStores found;
    private final TopologySpec topology;
    private final String applicationId;
    private final ChangelogSizes brokers;

    /** @param brokers where the changelogs' ends are read */
    StateOnDisk(PreopenedStores found, TopologySpec topology, String applicationId, ChangelogSizes brokers) {
        this.found = found;
        this.topology = topology;
        this.applicationId = applicationId;
        this.brokers = brokers;
    }

    /** Each task with state on disk that no thread holds, with the changelog records that state lacks. */
    Map<TaskId, Long> lags() {
        Map<TaskId, Map<TopicPartition, Long>> stored = stored();
        if (stored.isEmpty()) {
            return Map.of();
        }
        List<TopicPartition> changelogs = new ArrayList<>();
        stored.values().forEach(positions -> changelogs.addAll(positions.keySet()));
        Map<TopicPartition, Long> ends = brokers.ends(changelogs);
        Map<TaskId, Long> lags = new TreeMap<>();
        stored.forEach((task, positions) -> {
            long behind = 0;
            for (Map.Entry<TopicPartition, Long> p : positions.entrySet()) {
                Long end = ends.get(p.getKey());
                if (end == null) {
                    return;
                }
                behind += Math.max(0, end - p.getValue());
            }
            lags.put(task, behind);
        });
        return lags;
    }

    /** Per task whose restored stores were all found with an offset: each changelog partition's offset. */
    private Map<TaskId, Map<TopicPartition, Long>> stored() {
        Map<TaskId, Map<TopicPartition, Long>> stored = new TreeMap<>();
        found.unclaimedOffsets().forEach((dir, offsets) -> {
            TaskId task = TaskId.parse(dir).orElse(null);
            if (task == null || task.subtopology() >= topology.subtopologies().size()) {
                return;
            }
            Map<TopicPartition, Long> positions = new HashMap<>();
            for (StoreSpec spec : topology.storesOf(topology.subtopologies().get(task.subtopology()))) {
                if (!spec.logged()) {
                    continue;
                }
                Long offset = offsets.get(spec.name());
                if (offset == null || !spec.ownChangelog() || spec.type() != StoreType.ROCKSDB) {
                    return;
                }
                positions.put(new TopicPartition(spec.changelogTopic(applicationId), task.partition()), offset);
            }
            if (!positions.isEmpty()) {
                stored.put(task, positions);
            }
        });
        return stored;
    }
}
