package io.weir.streams.internals.query;

import io.weir.streams.HostInfo;
import io.weir.streams.KeyMetadata;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code metadataForKey}'s rules without a broker: the key's partition by Kafka's default partitioner or
 * by the one given, and the instances the last assignment put that partition's task and copies on.
 */
class KeyRoutingTest {

    private static final HostInfo A = new HostInfo("a", 1);
    private static final HostInfo B = new HostInfo("b", 2);
    private static final int PARTITIONS = 4;

    private final Serving serving;

    KeyRoutingTest() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        serving = new Serving(TopologyAccess.spec(builder.build()), "app", () -> false);
        serving.cluster().taskCounts(Map.of(0, PARTITIONS));
        serving.cluster()
                .hosts(Map.of(
                        A, new HostTasks(Set.of(new TaskId(0, 0), new TaskId(0, 1)), Set.of(new TaskId(0, 2))),
                        B, new HostTasks(Set.of(new TaskId(0, 2), new TaskId(0, 3)), Set.of(new TaskId(0, 0)))));
    }

    @Test
    void aKeyIsWhereKafkasDefaultPartitionerPutsItsSerializedBytes() {
        for (String key : new String[] {"k1", "k2", "k3", "k4", "k5"}) {
            int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            KeyMetadata metadata = serving.metadataForKey(
                            "counts", key, Serdes.String().serializer())
                    .orElseThrow();
            assertEquals(partition, metadata.partition());
            assertEquals(partition < 2 ? A : B, metadata.activeHost());
        }
    }

    @Test
    void aCustomPartitionerIsAskedWithTheInputTopicAndTheKeyAndNamesTheActiveAndStandbyHosts() {
        KeyMetadata metadata = serving.metadataForKey("counts", "any", (topic, key, value, partitions) -> {
                    assertEquals("in", topic);
                    assertEquals("any", key);
                    assertEquals(PARTITIONS, partitions);
                    return 2;
                })
                .orElseThrow();
        assertEquals(new KeyMetadata(B, Set.of(A), 2), metadata);
    }

    @Test
    void aPartitionOutsideTheInputsIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> serving.metadataForKey("counts", "any", (topic, key, value, partitions) -> partitions));
        assertTrue(e.getMessage().contains("outside [0, 4)"), e.getMessage());
    }
}
