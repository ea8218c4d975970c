package io.weir.streams.internals.window;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The window operator as it runs in a task, in streams-core: one test per part it orchestrates.
 * Windows of 10 s, watermark = largest event time - 1 ms. The rules themselves are held by the
 * contract and property suites of streams-test-utils.
 */
class WindowAggregateProcessorTest {

    @TempDir
    Path dir;

    private static Topology count(Windows windows, UnaryOperator<WindowedStream<String, String>> settings) {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedStream<String, String> windowed = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(windows);
        settings.apply(windowed.lateRecordsTo("late"))
                .count(Materialized.as("counts"))
                .toStream()
                .to("out");
        return builder.build();
    }

    /** The panes written to "out": {@code [-]key@start=count TIMING#index}. */
    private static List<String> panes(TaskHarness harness) {
        return harness.sent("out").stream()
                .map(s -> {
                    Windowed<String> key =
                            WindowedSerdes.string().deserializer().deserialize("out", s.key());
                    PaneInfo pane = PaneInfo.from(s.headers()).orElseThrow();
                    return (pane.isRetraction() ? "-" : "") + key.key() + "@"
                            + key.window().start() + "="
                            + Serdes.Long().deserializer().deserialize("out", s.value()) + " " + pane.timing() + "#"
                            + pane.index();
                })
                .toList();
    }

    private static long metric(TaskHarness harness, String name) {
        return harness.task().metrics().snapshot().getOrDefault("counts/" + name, 0L);
    }

    @Test
    void aWindowFiresItsOnTimePaneWhenTheWatermarkReachesItsEnd() {
        try (TaskHarness harness = new TaskHarness(count(TumblingWindows.of(Duration.ofSeconds(10)), w -> w), dir)) {
            harness.pipe("in", "k", "v", 1_000);
            harness.pipe("in", "k", "v", 9_999);
            assertEquals(List.of(), panes(harness), "W = 9998: not yet");
            harness.pipe("in", "k", "v", 10_000);
            assertEquals(List.of("k@0=2 ON_TIME#0"), panes(harness));
            assertEquals(
                    1,
                    metric(harness, WeirMetrics.OPEN_WINDOWS),
                    "[0, 10 s) closed as it fired (no allowed lateness); [10 s, 20 s) is open");
        }
    }

    @Test
    void aLateRecordWithinTheAllowedLatenessIsAddedAndFiresALatePane() {
        try (TaskHarness harness = new TaskHarness(
                count(TumblingWindows.of(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofSeconds(5)), w -> w),
                dir)) {
            harness.pipe("in", "k", "v", 1_000);
            harness.pipe("in", "k", "v", 12_000);
            harness.pipe("in", "k", "v", 2_000);
            assertEquals(List.of("k@0=1 ON_TIME#0", "k@0=2 LATE#1"), panes(harness));
            assertEquals(1, metric(harness, WeirMetrics.LATE_RECORDS_ADDED));
        }
    }

    @Test
    void aRecordPastTheAllowedLatenessIsRefusedCountedAndWrittenToTheLateTopicAndTheWindowIsPurged() {
        try (TaskHarness harness = new TaskHarness(count(TumblingWindows.of(Duration.ofSeconds(10)), w -> w), dir)) {
            harness.pipe("in", "k", "v", 1_000);
            harness.pipe("in", "k", "v", 10_000);
            harness.pipe("in", "k", "v", 3_000);
            assertEquals(List.of("k@0=1 ON_TIME#0"), panes(harness));
            assertEquals(1, metric(harness, WeirMetrics.LATE_RECORDS_DROPPED));
            List<RecordingContext.Sent> late = harness.sent("late");
            assertEquals(1, late.size());
            assertEquals("LATE", header(late.get(0), LateRecord.REASON_HEADER));
            assertEquals("0", header(late.get(0), LateRecord.WINDOW_START_HEADER));
            assertEquals(
                    List.of(10_000L),
                    WindowStoreEntries.read(harness.task().stores().cache("counts"), Serdes.String(), Serdes.Long())
                            .stream()
                            .map(e -> e.window().start())
                            .toList(),
                    "the closed window's state is gone");
        }
    }

    private static String header(RecordingContext.Sent sent, String name) {
        Header header = sent.headers().lastHeader(name);
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void whenSessionsMergeUnderRetractingRefinementTheMergedSessionsLastPaneIsRetracted() {
        try (TaskHarness harness = new TaskHarness(
                count(
                        SessionWindows.withGap(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofSeconds(60)),
                        w -> w.withRefinement(Refinement.ACCUMULATING_AND_RETRACTING)),
                dir)) {
            harness.pipe("in", "k", "v", 0);
            harness.pipe("in", "k", "v", 15_000);
            harness.pipe("in", "k", "v", 8_000);
            harness.pipe("in", "k", "v", 40_000);
            assertEquals(
                    List.of("k@0=1 ON_TIME#0", "-k@0=1 LATE#1", "k@0=3 ON_TIME#0"),
                    panes(harness),
                    "[0, 10 s) fired on time; the record at 8 s bridges it to [15 s, 25 s), so its pane is taken back, "
                            + "and the merged session [0, 25 s) fires when the watermark passes its end");
            assertEquals(1, metric(harness, WeirMetrics.SESSIONS_MERGED));
        }
    }

    @Test
    void aTaskStartedOnCommittedStateFiresTheWindowsItHoldsOnceTheWatermarkMovesOn() {
        Topology topology = count(TumblingWindows.of(Duration.ofSeconds(10)), w -> w);
        Map<TopicPartition, String> committed;
        try (TaskHarness first = new TaskHarness(topology, dir)) {
            first.pipe("in", "k", "v", 1_000);
            first.pipe("in", "k", "v", 2_000);
            first.commit();
            committed = first.task().committedTime();
        }
        try (TaskHarness second = new TaskHarness(topology, dir, committed)) {
            assertEquals(1_999, second.task().watermark(), "the watermark comes back with the offsets");
            second.pipe("in", "k", "v", 10_000);
            assertEquals(List.of("k@0=2 ON_TIME#0"), panes(second));
        }
    }
}
