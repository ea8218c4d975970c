package io.weir.streams.internals.reset;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanTest {

    private static final TopicPartition IN0 = new TopicPartition("payments", 0);
    private static final TopicPartition IN1 = new TopicPartition("payments", 1);
    private static final TopicPartition MID0 = new TopicPartition("enriched", 0);

    private static Plan plan(List<String> members, boolean force, List<String> refusals) {
        return new Plan(
                "fraud",
                "EMPTY",
                members,
                force,
                List.of("fraud-counts-changelog", "fraud-by-card-repartition"),
                List.of(new TopicPartition("fraud-by-card-repartition", 0)),
                new Position.Earliest(),
                List.of(
                        new PartitionMove(IN0, 42L, 0, null),
                        new PartitionMove(IN1, null, 3, "offset 1 asked is " + "before the partition's first")),
                List.of(new PartitionMove(MID0, 5L, 9, null)),
                Path.of("/var/lib/weir/fraud"),
                List.of("0_0", "0_1", "global"),
                List.of("input topics taken from the group's committed offsets: payments"),
                refusals);
    }

    @Test
    void aDryRunSaysWhatEachStepTouches() {
        String text = plan(List.of(), false, List.of()).render(true);
        assertEquals("""
                Reset of application 'fraud' -- DRY RUN, nothing is changed

                1. Consumer group 'fraud': no members (EMPTY)

                2. Reset the group's offsets of the input topics to earliest:
                     payments-0  42 -> 0
                     payments-1  (none) -> 3   (offset 1 asked is before the partition's first)

                3. Move the intermediate topics to their end:
                     enriched-0  5 -> 9

                4. Delete the internal topics (2), with the group's offsets on them:
                     fraud-counts-changelog
                     fraud-by-card-repartition

                5. Local state: clear /var/lib/weir/fraud, keeping the lock and the instance's identity \
                (weir-process-id); deletes:
                     0_0, 0_1, global

                Notes:
                  - input topics taken from the group's committed offsets: payments
                """, text);
    }

    @Test
    void aRefusedPlanEndsWithItsReasonsAndMembersAreListed() {
        Plan refused = plan(
                List.of("static member fraud-1-0 (client c at /10.0.0.1)"), false, List.of("the group has members"));
        String text = refused.render(false);
        assertTrue(refused.refused());
        assertFalse(text.contains("DRY RUN"), text);
        assertTrue(text.contains("1. Consumer group 'fraud': 1 member(s) (EMPTY):\n"), text);
        assertTrue(text.contains("\n     static member fraud-1-0 (client c at /10.0.0.1)\n"), text);
        assertTrue(text.endsWith("REFUSED: the reset cannot run:\n  - the group has members\n"), text);
        assertEquals("Reset of application 'fraud' refused:\n  - the group has members", refused.refusalMessage());

        String forced =
                plan(List.of("member m (client c at /h)"), true, List.of()).render(false);
        assertTrue(forced.contains("1 member(s) (EMPTY), removed first (--force):"), forced);
    }

    @Test
    void newOffsetsAreTheInputsThenTheIntermediates() {
        assertEquals(
                Map.of(IN0, 0L, IN1, 3L, MID0, 9L),
                plan(List.of(), false, List.of()).newOffsets());
    }
}
