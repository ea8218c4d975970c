package io.weir.streams.internals.task;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task's per-record cycle and its two-phase commit, on a real task with real stores. */
class StreamTaskTest {

    private static final StringDeserializer STRINGS = new StringDeserializer();

    @TempDir
    Path dir;

    /**
     * A keyed processor that writes, for each record, the watermark it saw, keeps the last value per
     * key in store "last", and, for records with value "timer", sets an event-time timer at t + 1000.
     */
    private static Topology observing(WatermarkStrategy watermarks) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(watermarks))
                .groupByKey()
                .process(
                        () -> new KeyedProcessor<String, String, String, String>() {
                            @Override
                            public void process(
                                    String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                                ctx.store("last").put(key, value);
                                if (value.equals("timer")) {
                                    ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 1_000);
                                }
                                ctx.forward(key, "t=" + ctx.eventTime() + " W=" + ctx.watermark());
                            }

                            @Override
                            public void onTimer(
                                    long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
                                ctx.forward(ctx.currentKey(), "timer " + time + " W=" + ctx.watermark());
                            }
                        },
                        Materialized.<String, String>as("last")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private static List<String> values(TaskHarness harness) {
        return harness.sent("out", STRINGS, STRINGS).stream()
                .map(Map.Entry::getValue)
                .toList();
    }

    @Test
    void eachRecordIsProcessedAgainstTheWatermarkOfTheRecordsBeforeIt() {
        try (TaskHarness harness =
                new TaskHarness(observing(WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(1))), dir)) {
            harness.pipe("in", "k", "a", 10_000);
            harness.pipe("in", "k", "b", 20_000);
            harness.pipe("in", "k", "c", 5_000);
            assertEquals(List.of("t=10000 W=" + Long.MIN_VALUE, "t=20000 W=8999", "t=5000 W=18999"), values(harness));
            assertEquals(18_999, harness.task().watermark(), "a late record does not move it back");
        }
    }

    @Test
    void aWatermarkAdvanceReachesTheOperatorsRightAfterTheRecordThatCausedIt() {
        try (TaskHarness harness = new TaskHarness(observing(WatermarkStrategy.forMonotonousTimestamps()), dir)) {
            harness.pipe("in", "k", "timer", 1_000);
            harness.pipe("in", "j", "x", 2_001);
            assertEquals(
                    List.of("t=1000 W=" + Long.MIN_VALUE, "t=2001 W=999", "timer 2000 W=2000"),
                    values(harness),
                    "the timer at 2000 fires as soon as the record at 2001 moves the watermark to 2000");
        }
    }

    @Test
    void aQuietPartitionTurnsIdleOnceProcessingTimePassesItsIdleness() {
        try (TaskHarness harness = new TaskHarness(
                observing(WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(30))), dir)) {
            harness.pipe("in", "k", "a", 10_000);
            harness.advanceTo(30_000);
            assertTrue(harness.task().isIdle(new TopicPartition("in", 0)));
            assertEquals(9_999, harness.task().watermark(), "idle, but an idle task's watermark stays put");
        }
    }

    @Test
    void aCommitSendsTheCachedChangesToTheChangelogFirstAndAppliesThemToTheStoreSecond() {
        try (TaskHarness harness = new TaskHarness(observing(WatermarkStrategy.forMonotonousTimestamps()), dir)) {
            harness.pipe("in", "k", "a", 1_000);
            harness.pipe("in", "k", "b", 2_000);
            TaskStores stores = harness.task().stores();
            byte[] key = "k".getBytes(StandardCharsets.UTF_8);
            assertNull(stores.cache("last").store().get(key), "nothing reaches the store before a commit");
            assertEquals(List.of(), harness.sent("app-last-changelog"));

            List<TaskStores.StoreFlush> prepared = harness.task().prepareCommit();
            var changelog = harness.sent("app-last-changelog");
            assertEquals(1, changelog.size(), "the last value per key, once: " + changelog);
            assertEquals("b", STRINGS.deserialize("", changelog.get(0).value()));
            assertNull(stores.cache("last").store().get(key), "still nothing: the transaction has not committed");

            harness.task().completeCommit(prepared, Map.of("last", Map.of("changelog-offset", new byte[] {7})));
            assertNotNull(stores.cache("last").store().get(key), "applied once the commit is durable");
            assertEquals(
                    7,
                    stores.cache("last").store().metadata("changelog-offset")[0],
                    "with the changelog offset it corresponds to");
        }
    }

    @Test
    void theEndOfInputFiresWhatEveryLaterWatermarkWould() {
        try (TaskHarness harness = new TaskHarness(observing(WatermarkStrategy.forMonotonousTimestamps()), dir)) {
            harness.pipe("in", "k", "timer", 1_000);
            harness.task().endOfInput();
            assertEquals(Long.MAX_VALUE, harness.task().watermark());
            assertEquals("timer 2000 W=" + Long.MAX_VALUE, values(harness).get(1));
        }
    }
}
