package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.ClusterMetadata;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a member with warm-up copies asks for a new assignment ({@link AssignorContext#takeProbeReason}). */
class AssignorContextTest {

    private static final TaskId WARM = new TaskId(0, 1);
    private static final long INTERVAL_MS = 60_000;

    private static AssignorContext context() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).to("out");
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, "probe");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        config.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG, 100L);
        config.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS, INTERVAL_MS);
        return new AssignorContext(
                TopologyAccess.spec(builder.build()),
                "probe",
                null,
                new ClusterMetadata(),
                "process",
                new StreamsConfig(config));
    }

    private static void assignWarmup(AssignorContext context) {
        context.assigned(new AssignorMessages.Assignment(
                Set.of(new TaskId(0, 0)), Set.of(WARM), Set.of(WARM), null, Map.of(), false, Set.of()));
    }

    /** Asks {@code context} whether to probe now, its warm-up {@code lag} records behind. */
    private static @Nullable String probe(AssignorContext context, long lag, long nowMs) {
        context.standbyLags(() -> Map.of(WARM, lag));
        return context.takeProbeReason(nowMs);
    }

    @Test
    void aMemberAsksOnceAsSoonAsAWarmupIsWithinTheAcceptableLagAndNotAgainAtOnce() {
        AssignorContext context = context();
        assignWarmup(context);
        long now = System.currentTimeMillis();
        assertNull(probe(context, 101L, now), "still behind");
        String reason = probe(context, 100L, now);
        assertNotNull(reason);
        assertTrue(reason.contains("caught up"), reason);
        assertNull(probe(context, 0L, now), "once per assignment");
        assignWarmup(context);
        assertNull(
                probe(context, 0L, now + 1),
                "not at once again for the same warm-up: the group would keep rebalancing");
        assertNotNull(probe(context, 0L, now + AssignorContext.REPEAT_PROBE_BACKOFF_MS), "again after the back-off");
    }

    @Test
    void aMemberWhoseWarmupStaysBehindAsksAfterTheProbingInterval() {
        AssignorContext context = context();
        assignWarmup(context);
        long now = System.currentTimeMillis();
        assertNull(probe(context, 5_000L, now + INTERVAL_MS / 2));
        String reason = probe(context, 5_000L, now + INTERVAL_MS + 1);
        assertNotNull(reason);
        assertTrue(reason.startsWith("probing"), reason);
    }

    @Test
    void aMemberWithoutWarmupsNeverAsks() {
        AssignorContext context = context();
        context.assigned(new AssignorMessages.Assignment(Set.of(WARM), null, Map.of(), GroupProtocol.LATEST));
        assertEquals(null, probe(context, 0L, System.currentTimeMillis() + 10 * INTERVAL_MS));
    }

    @Test
    void aMemberReportsItsStateOnDiskBesideItsStandbyCopiesWhoseOwnLagWins() {
        AssignorContext context = context();
        TaskId onDisk = new TaskId(0, 2);
        context.stateOnDisk(() -> Map.of(onDisk, 7L, WARM, 500L));
        context.standbyLags(() -> Map.of(WARM, 3L));
        assertEquals(Map.of(onDisk, 7L, WARM, 3L), context.copyLags());
    }

    @Test
    void theLeaderAbortsTheTransactionsOfTheLastGenerationsMembersThatAreGone() {
        AssignorContext context = context();
        java.util.List<Set<String>> fenced = new java.util.ArrayList<>();
        context.transactions("app-a-0", fenced::add);
        context.assigned(new AssignorMessages.Assignment(
                Set.of(), Set.of(), Set.of(), null, Map.of(), false, Set.of("app-a-0", "app-b-0", "app-c-0")));
        context.fenceDeparted(Set.of("app-a-0", "app-b-0", "app-c-0"));
        assertEquals(java.util.List.of(), fenced, "nobody left");
        context.fenceDeparted(Set.of("app-a-0", "app-c-0", "app-d-0"));
        assertEquals(java.util.List.of(Set.of("app-b-0")), fenced, "b left; d is new");
    }
}
