package io.weir.streams.internals.task;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.ChangeSerde;
import io.weir.streams.internals.testing.FormatRefusals;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * A record of a repartition topic in a format version of Weir's this version does not read (a newer
 * instance wrote it during a rolling upgrade) fails the task with the format's refusal: it is not bad
 * input for the source's error handler, whose message would also lose the topic's name to redaction.
 */
class RepartitionFormatRefusalTest {

    @TempDir
    Path dir;

    /** in (a table) -> re-grouped by value -> counted: sub-topology 1 reads table changes from a repartition topic. */
    private static Topology regroupedCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, v) -> KeyValue.pair(v, v), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return builder.build();
    }

    @Test
    void aTableChangeOfANewerVersionFailsTheTaskNamingTheTopic() {
        Topology topology = regroupedCount();
        String repartition = TopologyAccess.spec(topology).subtopologies().get(1).sources().stream()
                .filter(SourceSpec::repartition)
                .findFirst()
                .orElseThrow()
                .topic("app");
        byte[] change = new ChangeSerde<>(Serdes.String()).serializer().serialize(repartition, Change.insert("k"));
        try (TaskHarness harness = TaskHarness.ofSubtopology(topology, dir, 1, Map.of(repartition, 1))) {
            FormatRefusals.assertRefused(
                    () -> harness.pipe(
                            repartition,
                            "v".getBytes(StandardCharsets.UTF_8),
                            FormatRefusals.withVersion(change, 2),
                            new RecordHeaders(),
                            0),
                    "Repartition topic '" + repartition + "'",
                    "table change in format version 2");
        }
    }
}
