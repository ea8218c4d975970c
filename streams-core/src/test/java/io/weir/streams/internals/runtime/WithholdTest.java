package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A task another member still owns is withheld from its new owner for one rebalance (cooperative moves). */
class WithholdTest {

    private static final TaskId T1 = new TaskId(0, 1);

    private static TopologySpec topology(boolean stateful) {
        StreamsBuilder builder = new StreamsBuilder();
        if (stateful) {
            builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                    .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                    .count(Materialized.as("counts"));
        } else {
            builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                    .to("out");
        }
        return TopologyAccess.spec(builder.build());
    }

    private static Map<String, Set<TaskId>> of(String member, TaskId... tasks) {
        Map<String, Set<TaskId>> out = new HashMap<>();
        out.put(member, new TreeSet<>(Set.of(tasks)));
        return out;
    }

    @Test
    void aWithheldTaskWithStateStaysACopyOfItsNewOwnerUntilTheNextRebalance() {
        Map<String, Set<TaskId>> active = of("c", T1, new TaskId(0, 2));
        Map<String, Set<TaskId>> standbys = of("c");
        boolean withheld = WeirPartitionAssignor.withholdOwnedElsewhere(
                active, standbys, Map.of(new TopicPartition("in", 1), "b"), topology(true), "app");
        assertTrue(withheld, "every member is to rejoin at once");
        assertEquals(Set.of(new TaskId(0, 2)), active.get("c"));
        assertEquals(Set.of(T1), standbys.get("c"), "the copy that made c its new owner is kept");
    }

    @Test
    void aWithheldTaskWithoutStateIsNotACopy() {
        Map<String, Set<TaskId>> active = of("c", T1);
        Map<String, Set<TaskId>> standbys = of("c");
        assertTrue(WeirPartitionAssignor.withholdOwnedElsewhere(
                active, standbys, Map.of(new TopicPartition("in", 1), "b"), topology(false), "app"));
        assertTrue(standbys.get("c").isEmpty());
    }

    @Test
    void aTaskTheMemberOwnsItselfIsNotWithheld() {
        Map<String, Set<TaskId>> active = of("c", T1);
        assertFalse(WeirPartitionAssignor.withholdOwnedElsewhere(
                active, of("c"), Map.of(new TopicPartition("in", 1), "c"), topology(true), "app"));
        assertEquals(Set.of(T1), active.get("c"));
    }
}
