package io.weir.streams.internals.topology;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A topic without idleness read next to another warns at start; one read alone, or with idleness, does not. */
class IdlenessWarningsTest {

    private static List<String> warnings(WatermarkStrategy profiles, boolean joined) {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> views = builder.stream(
                "views",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(
                                WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofMinutes(1))));
        EventStream<String, String> updates = builder.stream(
                "profile-updates",
                Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(profiles));
        if (joined) {
            views.merge(updates).to("out");
        } else {
            views.to("out");
            updates.to("out-2");
        }
        return TopologyAccess.spec(builder.build()).idlenessWarnings();
    }

    @Test
    void aTopicWithoutIdlenessReadNextToAnotherIsNamed() {
        List<String> warnings = warnings(WatermarkStrategy.forMonotonousTimestamps(), true);
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).startsWith("Topic 'profile-updates' is read by the same tasks as [views]"));
    }

    @Test
    void noWarningWithIdlenessOrForATopicReadAlone() {
        assertEquals(
                List.of(),
                warnings(WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(30)), true));
        assertEquals(List.of(), warnings(WatermarkStrategy.forMonotonousTimestamps(), false));
    }
}
