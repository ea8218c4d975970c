package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link DedupByEventId}: events keyed by id, remembered for 10 s of event time. */
class DedupByEventIdTest {

    private final TestDriver driver = new TestDriver(topology());
    private final TestInputTopic<String, String> events = driver.input("events", Serdes.String(), Serdes.String());
    private final TestOutputTopic<String, String> unique = driver.output("unique", Serdes.String(), Serdes.String());

    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .process(
                        () -> new DedupByEventId<String, String>("seen", Duration.ofSeconds(10)),
                        DedupByEventId.store("seen", Serdes.String()))
                .to("unique", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void theFirstCopyOfAnIdPassesAndLaterCopiesAreDropped() {
        events.pipe("e1", "first", 1_000);
        events.pipe("e2", "other", 2_000);
        events.pipe("e1", "retry", 3_000);
        events.pipe("e1", "retry again", 1_000);
        assertEquals(List.of("first", "other"), unique.readValues());
    }

    @Test
    void anIdIsForgottenOnceTheWatermarkPassesItsRetention() {
        events.pipe("e1", "first", 1_000);
        events.pipe("e2", "other", 11_000);
        assertEquals(
                Map.of("e1", 1_000L, "e2", 11_000L),
                driver.keyValueStore("seen", Serdes.String(), Serdes.Long()),
                "W = 10,999: e1's timer at 11,000 has not fired");

        events.pipe("e3", "moves time", 11_001);

        assertEquals(
                Map.of("e2", 11_000L, "e3", 11_001L), driver.keyValueStore("seen", Serdes.String(), Serdes.Long()));
        events.pipe("e1", "a copy after the retention", 11_002);
        assertEquals(List.of("first", "other", "moves time", "a copy after the retention"), unique.readValues());
    }

    @Test
    void aNonPositiveRetentionIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new DedupByEventId<String, String>("seen", Duration.ZERO));
        assertEquals("retention must be positive, was PT0S", e.getMessage());
    }
}
