package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the leader of a group of mixed releases assigns ({@link GroupProtocol}): in the lowest version a member
 * speaks, keeping a newer layout's member at work, and failing only a member too old to read.
 */
class GroupProtocolVersionsTest {

    private static final Node NODE = new Node(0, "localhost", 9092);
    private static final Cluster CLUSTER = new Cluster(
            "cluster",
            List.of(NODE),
            List.of(
                    new PartitionInfo("in", 0, NODE, new Node[] {NODE}, new Node[] {NODE}),
                    new PartitionInfo("in", 1, NODE, new Node[] {NODE}, new Node[] {NODE})),
            Set.of(),
            Set.of());

    private static WeirPartitionAssignor leader(@Nullable String upgradeFrom) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).to("out");
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, "versions");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        if (upgradeFrom != null) {
            config.put(StreamsConfig.UPGRADE_FROM, upgradeFrom);
        }
        StreamsConfig streamsConfig = new StreamsConfig(config);
        AssignorContext context = new AssignorContext(
                TopologyAccess.spec(builder.build()),
                "versions",
                null,
                new ClusterMetadata(),
                "leader-process",
                streamsConfig);
        WeirPartitionAssignor assignor = new WeirPartitionAssignor();
        assignor.configure(Map.of(AssignorContext.CONFIG_KEY, context));
        return assignor;
    }

    private static Subscription member(String process, int version, TopicPartition... owned) {
        ByteBuffer data = AssignorMessages.subscription(new AssignorMessages.Subscription(
                Set.of(), Map.of(), null, process, null, version, GroupProtocol.LAYOUT));
        return new Subscription(List.of("in"), data, List.of(owned), 1, Optional.empty());
    }

    private static Subscription layout(int layout, TopicPartition... owned) {
        ByteBuffer data =
                ByteBuffer.allocate(6).putShort((short) layout).putInt(0).flip();
        return new Subscription(List.of("in"), data, List.of(owned), 1, Optional.empty());
    }

    private static Map<String, AssignorMessages.Assignment> assign(
            WeirPartitionAssignor leader, Map<String, Subscription> members) {
        GroupAssignment group = leader.assign(CLUSTER, new GroupSubscription(members));
        Map<String, AssignorMessages.Assignment> read = new HashMap<>();
        group.groupAssignment().forEach((m, a) -> read.put(m, AssignorMessages.assignment(a.userData())));
        return read;
    }

    @Test
    void aGroupOfTheNewestReleaseUsesTheNewestVersion() {
        Map<String, AssignorMessages.Assignment> out = assign(
                leader(null), Map.of("a", member("pa", GroupProtocol.LATEST), "b", member("pb", GroupProtocol.LATEST)));
        out.values().forEach(a -> assertEquals(GroupProtocol.LATEST, a.version()));
    }

    @Test
    void aMemberOfAnOlderReleaseHoldsTheWholeGroupAtItsVersion() {
        Map<String, AssignorMessages.Assignment> out = assign(
                leader(null),
                Map.of("new", member("pa", GroupProtocol.LATEST), "old", member("pb", GroupProtocol.OLDEST)));
        out.values().forEach(a -> assertEquals(GroupProtocol.OLDEST, a.version()));
        assertEquals(2, out.values().stream().mapToInt(a -> a.tasks().size()).sum(), "both tasks assigned");
    }

    @Test
    void aLeaderHeldAtAnOlderVersionByUpgradeFromAssignsInIt() {
        Map<String, AssignorMessages.Assignment> out =
                assign(leader("5"), Map.of("a", member("pa", GroupProtocol.LATEST)));
        assertEquals(GroupProtocol.OLDEST, out.get("a").version());
    }

    @Test
    void aMemberInANewerLayoutKeepsTheTasksItOwnsAndIsAskedToRejoin() {
        TopicPartition p1 = new TopicPartition("in", 1);
        Map<String, AssignorMessages.Assignment> out =
                assign(leader(null), Map.of("old", member("pa", GroupProtocol.LATEST), "newer", layout(9, p1)));
        AssignorMessages.Assignment newer = out.get("newer");
        assertEquals(Set.of(new TaskId(0, 1)), newer.tasks(), "it goes on with what it runs");
        assertTrue(newer.rejoin(), "it rejoins, speaking a layout the leader reads");
        assertNull(newer.error());
        assertEquals(GroupProtocol.LATEST, newer.version(), "it does not lower the version in use");
        assertEquals(Set.of(new TaskId(0, 0)), out.get("old").tasks());
    }

    @Test
    void aMemberTooOldToReadIsToldWhyWhileTheOthersGoOn() {
        Map<String, AssignorMessages.Assignment> out =
                assign(leader(null), Map.of("ok", member("pa", GroupProtocol.LATEST), "ancient", layout(3)));
        String error = out.get("ancient").error();
        assertNotNull(error);
        assertTrue(error.contains("layout 3"), error);
        assertNull(out.get("ok").error());
        assertEquals(2, out.get("ok").tasks().size());
        assertEquals(Set.of(), out.get("ancient").tasks());
    }

    @Test
    void upgradeFromTakesAProtocolVersionThisReleaseSpeaksAndRefusesAnythingElse() {
        for (String bad : List.of("3.4", "4", "7")) {
            Map<String, Object> config = new HashMap<>();
            config.put(StreamsConfig.APPLICATION_ID, "versions");
            config.put(StreamsConfig.BOOTSTRAP_SERVERS, "localhost:9092");
            config.put(StreamsConfig.UPGRADE_FROM, bad);
            ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(config), bad);
            assertTrue(e.getMessage().contains("group protocol version"), e.getMessage());
        }
    }
}
