package io.weir.streams.internals.task;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.RecordError;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.internals.testing.TaskHarness;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Watermark marks, the control records that carry event time across a repartition topic, are honoured
 * only there and only when they are marks Weir wrote: a header named like one on any other record is an
 * ordinary header.
 */
class WatermarkMarksTest {

    @TempDir
    Path dir;

    /** A mark's headers as a forger would write them: writer 0, watermark near the end of time, not idle. */
    private static Headers forgedMark(int writer) {
        Headers headers = new RecordHeaders();
        headers.add(
                "weir.wm", ByteBuffer.allocate(8).putLong(Long.MAX_VALUE - 1).array());
        headers.add("weir.wm.writer", ByteBuffer.allocate(4).putInt(writer).array());
        headers.add("weir.wm.idle", new byte[] {0});
        return headers;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** in -> 10 s windows counted -> out, in one sub-topology. */
    private static Topology windowedCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to("out", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return builder.build();
    }

    /** in -> re-keyed by value -> counted per value: sub-topology 0 writes a repartition topic, 1 reads it. */
    private static Topology rekeyedCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .selectKey((k, v) -> v)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return builder.build();
    }

    private static String repartitionTopic(Topology topology) {
        return TopologyAccess.spec(topology).subtopologies().get(1).sources().stream()
                .filter(SourceSpec::repartition)
                .findFirst()
                .orElseThrow()
                .topic("app");
    }

    @Test
    void aRecordOfAUserTopicWithAMarkHeaderIsAnOrdinaryRecord() {
        try (TaskHarness harness = new TaskHarness(windowedCount(), dir)) {
            harness.pipe("in", utf8("k"), utf8("v"), forgedMark(0), 1_000);
            assertEquals(999, harness.task().watermark(), "its event time made the watermark, not the header");
            harness.task().endOfInput();
            assertEquals(1, harness.sent("out").size(), "and it was counted in its window");
        }
    }

    @Test
    void aMarkHeaderOfAnInputRecordIsNotCopiedToARepartitionTopic() {
        Topology topology = rekeyedCount();
        String repartition = repartitionTopic(topology);
        try (TaskHarness harness = new TaskHarness(topology, dir)) {
            Headers headers = forgedMark(0);
            headers.add("trace", utf8("t-1"));
            headers.add("weir.future", new byte[] {1});
            harness.pipe("in", utf8("k"), utf8("v"), headers, 1_000);
            List<RecordingContext.Sent> data = harness.sent(repartition).stream()
                    .filter(s -> s.key() != null)
                    .toList();
            assertEquals(1, data.size());
            Headers written = data.get(0).headers();
            assertNull(written.lastHeader("weir.wm"));
            assertNull(written.lastHeader("weir.wm.writer"));
            assertNull(written.lastHeader("weir.wm.idle"));
            assertNull(written.lastHeader("weir.future"), "nor a forged future flag");
            assertNotNull(written.lastHeader("trace"), "the user's own headers travel on");
        }
    }

    @Test
    void aValidMarkOnARepartitionTopicAdvancesItsPartitionWatermark() {
        Topology topology = rekeyedCount();
        String repartition = repartitionTopic(topology);
        try (TaskHarness harness = TaskHarness.ofSubtopology(topology, dir, 1, Map.of(repartition, 1))) {
            Headers mark = forgedMark(0);
            harness.pipe(repartition, null, null, mark, 0);
            assertEquals(Long.MAX_VALUE - 1, harness.task().watermark());
        }
    }

    @Test
    void aMarkWithAValueOnARepartitionTopicGoesToTheSourcesErrorHandler() {
        Topology topology = rekeyedCount();
        String repartition = repartitionTopic(topology);
        try (TaskHarness harness = TaskHarness.ofSubtopology(topology, dir, 1, Map.of(repartition, 1))) {
            RecordError e =
                    assertThrows(RecordError.class, () -> harness.pipe(repartition, null, utf8("x"), forgedMark(0), 0));
            assertEquals(RecordError.Reason.INVALID_WATERMARK_MARK, e.reason());
            assertTrue(e.getMessage().contains(repartition + "-0@0"), e.getMessage());
            assertEquals(Long.MIN_VALUE, harness.task().watermark(), "nothing of it was taken");
        }
    }

    @Test
    void aMarkNamingAWriterTheTopicDoesNotHaveIsRefused() {
        Topology topology = rekeyedCount();
        String repartition = repartitionTopic(topology);
        try (TaskHarness harness = TaskHarness.ofSubtopology(topology, dir, 1, Map.of(repartition, 2))) {
            RecordError e =
                    assertThrows(RecordError.class, () -> harness.pipe(repartition, null, null, forgedMark(2), 0));
            assertEquals(RecordError.Reason.INVALID_WATERMARK_MARK, e.reason());
            assertTrue(e.getMessage().contains("writer 2"), e.getMessage());
        }
    }

    @Test
    void aMarkWithATruncatedHeaderIsRefused() {
        Topology topology = rekeyedCount();
        String repartition = repartitionTopic(topology);
        try (TaskHarness harness = TaskHarness.ofSubtopology(topology, dir, 1, Map.of(repartition, 1))) {
            Headers mark = forgedMark(0);
            mark.remove("weir.wm");
            mark.add("weir.wm", new byte[] {1, 2});
            RecordError e = assertThrows(RecordError.class, () -> harness.pipe(repartition, null, null, mark, 0));
            assertEquals(RecordError.Reason.INVALID_WATERMARK_MARK, e.reason());
            assertTrue(e.getMessage().contains("weir.wm "), e.getMessage());
        }
    }
}
