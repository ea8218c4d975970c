package io.weir.streams.internals.task;

import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The event time a task commits with each input offset (the offset's metadata: {@code w=<task
 * watermark>;m=<highest event time>} for a user topic, {@code w=...;u=<each writer's watermark>,...} for a
 * repartition topic), byte for byte in UTF-8. The next owner of the task reads it, whatever its release, to
 * judge lateness as the last one did. Each fixture record: the partition, then the metadata.
 */
class CommittedTimeGoldenTest {

    private static final TopicPartition USER = new TopicPartition("clicks", 3);
    private static final TopicPartition QUIET = new TopicPartition("views", 3);
    private static final TopicPartition REPARTITION = new TopicPartition("app-count-repartition", 3);
    private static final WatermarkStrategy DELAY = WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5));

    private static WatermarkTracker tracker() {
        WatermarkTracker tracker = new WatermarkTracker();
        tracker.add(USER, DELAY, 0, false);
        tracker.add(QUIET, DELAY, 0, true);
        tracker.addUpstream(REPARTITION, 3, true);
        return tracker;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void committedTimeIsTheGoldenText() {
        WatermarkTracker tracker = tracker();
        tracker.observe(USER, 1_700_000_060_000L);
        tracker.upstream(REPARTITION, 0, 1_700_000_050_000L, false);
        tracker.upstream(REPARTITION, 1, 1_700_000_040_000L, false);
        tracker.upstream(REPARTITION, 2, -7, true);
        long watermark = tracker.advance();
        Map<TopicPartition, String> committed = tracker.committedTime();
        List<GoldenBytes.Entry> stored = GoldenBytes.of("committed-time")
                .add(
                        "a user topic's partition: the task watermark and its highest event time",
                        utf8(USER.toString()),
                        utf8(committed.get(USER)))
                .add(
                        "a table's partition that saw nothing yet (Long.MIN_VALUE)",
                        utf8(QUIET.toString()),
                        utf8(committed.get(QUIET)))
                .add(
                        "a repartition topic's partition: each of 3 writers' watermarks (writer 2 idle at -7)",
                        utf8(REPARTITION.toString()),
                        utf8(committed.get(REPARTITION)))
                .verify();

        WatermarkTracker restored = tracker();
        for (GoldenBytes.Entry e : stored) {
            String partition = new String(e.field(0), StandardCharsets.UTF_8);
            restored.restore(
                    List.of(USER, QUIET, REPARTITION).stream()
                            .filter(tp -> tp.toString().equals(partition))
                            .findFirst()
                            .orElseThrow(),
                    new String(e.field(1), StandardCharsets.UTF_8));
        }
        assertEquals(1_700_000_040_000L, watermark);
        assertEquals(watermark, restored.watermark());
        assertEquals(1_700_000_060_000L - 5_000 - 1, restored.partitionWatermark(USER));
        assertEquals(Long.MIN_VALUE, restored.partitionWatermark(QUIET));
        assertEquals(-7, restored.partitionWatermark(REPARTITION), "writer 2's watermark (idleness is not kept)");
        restored.upstream(REPARTITION, 2, Long.MAX_VALUE, false);
        assertEquals(1_700_000_040_000L, restored.partitionWatermark(REPARTITION), "writer 1's");
    }
}
