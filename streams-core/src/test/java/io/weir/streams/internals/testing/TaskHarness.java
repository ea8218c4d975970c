package io.weir.streams.internals.testing;

import io.weir.streams.Topology;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.state.CacheBudget;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.StoreHosting;
import io.weir.streams.internals.task.RawRecord;
import io.weir.streams.internals.task.StreamTask;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One real {@link StreamTask} (task {@code 0_0}: the first sub-topology, partition 0) over real
 * stores in a test's directory, fed string records by hand, its sends kept in a list. For testing the
 * task and the operators in streams-core itself; the TestDriver of streams-test-utils is the full
 * version (topics, partitions, repartitioning, commits on a clock).
 */
public final class TaskHarness implements AutoCloseable {

    private static final StringSerializer STRINGS = new StringSerializer();

    private final StreamTask task;
    private final List<RecordingContext.Sent> sent = new ArrayList<>();
    private final Map<String, Long> offsets = new HashMap<>();
    private long now;

    public TaskHarness(Topology topology, Path stateDir) {
        this(topology, stateDir, Map.of());
    }

    /** @param committedTime the event time a previous owner committed with each input partition's offset */
    public TaskHarness(Topology topology, Path stateDir, Map<TopicPartition, String> committedTime) {
        this(topology, stateDir, committedTime, null);
    }

    /**
     * @param hosting where the task offers its queryable stores to queries, as the runtime's tasks do (not
     *     readable until {@code task().stores().ready()}; withdrawn when the harness closes)
     */
    public TaskHarness(Topology topology, Path stateDir, StoreHosting hosting) {
        this(topology, stateDir, Map.of(), hosting);
    }

    /**
     * Task {@code subtopology}_0 of {@code topology}, which reads repartition topics (as named in Kafka,
     * application id {@code app}) written by the given numbers of upstream tasks.
     */
    public static TaskHarness ofSubtopology(
            Topology topology, Path stateDir, int subtopology, Map<String, Integer> upstreamTasks) {
        return new TaskHarness(topology, stateDir, Map.of(), null, subtopology, upstreamTasks);
    }

    private TaskHarness(
            Topology topology,
            Path stateDir,
            Map<TopicPartition, String> committedTime,
            @Nullable StoreHosting hosting) {
        this(topology, stateDir, committedTime, hosting, 0, Map.of());
    }

    private TaskHarness(
            Topology topology,
            Path stateDir,
            Map<TopicPartition, String> committedTime,
            @Nullable StoreHosting hosting,
            int subtopology,
            Map<String, Integer> upstreamTasks) {
        var spec = TopologyAccess.spec(topology);
        SubtopologySpec sub = spec.subtopologies().get(subtopology);
        List<StoreSpec> stores = spec.storesOf(sub);
        RecordCollector collector = new SentRecords(sent);
        TaskId id = new TaskId(subtopology, 0);
        task = new StreamTask(
                id,
                "app",
                sub,
                new TaskStores(
                        stores,
                        stateDir.resolve(id.toString()),
                        new CacheBudget(1024 * 1024),
                        Map.of(),
                        hosting,
                        RocksDbResources.unshared()),
                collector,
                new TaskMetrics(id.toString()),
                now,
                upstreamTasks,
                committedTime,
                -1);
    }

    /** Processes a record of {@code topic} (partition 0) with event time {@code t}, at the harness's clock. */
    public void pipe(String topic, String key, String value, long t) {
        pipe(topic, STRINGS.serialize(topic, key), STRINGS.serialize(topic, value), new RecordHeaders(), t);
    }

    /** Processes a record of {@code topic} (partition 0) as bytes with headers, at the harness's clock. */
    public void pipe(String topic, byte @Nullable [] key, byte @Nullable [] value, Headers headers, long t) {
        long offset = offsets.merge(topic, 1L, Long::sum) - 1;
        task.process(new RawRecord(topic, 0, offset, t, key, value, headers), now);
    }

    /** Moves processing time to {@code time}. */
    public void advanceTo(long time) {
        now = time;
        task.advanceProcessingTime(time);
    }

    /** Both phases of a commit, as the runtime makes them around its transaction. */
    public void commit() {
        task.completeCommit(task.prepareCommit(), Map.of());
    }

    public StreamTask task() {
        return task;
    }

    /** Everything sent to {@code topic} so far, as (key, value) decoded with the deserializers. */
    public <K, V> List<Map.Entry<K, V>> sent(String topic, Deserializer<K> keys, Deserializer<V> values) {
        List<Map.Entry<K, V>> out = new ArrayList<>();
        for (RecordingContext.Sent s : sent) {
            if (s.topic().equals(topic)) {
                out.add(new AbstractMap.SimpleEntry<>(
                        keys.deserialize(topic, s.key()), values.deserialize(topic, s.value())));
            }
        }
        return out;
    }

    /** Everything sent to {@code topic} so far, raw. */
    public List<RecordingContext.Sent> sent(String topic) {
        return sent.stream().filter(s -> s.topic().equals(topic)).toList();
    }

    @Override
    public void close() {
        task.close();
    }
}
