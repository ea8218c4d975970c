package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documented way out of a committed watermark that is already wrong (docs/concepts/watermarks.md):
 * a record years ahead, trusted by a source without a maximum future skew, moved the watermark there and
 * every later record is late, also after a restart. Resetting the group's offsets to where they are
 * commits them without Weir's event time; the next start judges records against their own time again.
 */
@ExtendWith(KafkaBrokerExtension.class)
class WatermarkRecoveryTest {

    private static final String P = "wm-recovery-";
    private static final long YEAR = Duration.ofDays(365).toMillis();

    /** Counts per 10 s of the event time each value names, trusting every event time. */
    private static WeirStreams app(KafkaBroker broker, Path dir) {
        return app(broker, dir, P, WatermarkStrategy.forMonotonousTimestamps().withoutMaxFutureSkew());
    }

    /** Counts per 10 s of the event time each value names, with {@code watermarks}. */
    private static WeirStreams app(KafkaBroker broker, Path dir, String p, WatermarkStrategy watermarks) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        p + "in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withTimestamps(Long::parseLong)
                                .withWatermarks(watermarks))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to(p + "out", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put("commit.interval.ms", 100);
        return new WeirStreams(builder.build(), config);
    }

    private static void produce(KafkaBroker broker, long... eventTimes) {
        produce(broker, P, eventTimes);
    }

    private static void produce(KafkaBroker broker, String p, long... eventTimes) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (long t : eventTimes) {
                producer.send(new ProducerRecord<>(p + "in", "k", Long.toString(t)));
            }
        }
    }

    private static long metric(WeirStreams app, String name) {
        return app.metrics().entrySet().stream()
                .filter(e -> e.getKey().endsWith("/" + name))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    @Test
    void resettingTheOffsetsToWhereTheyAreStartsEventTimeAfresh(KafkaBroker broker, @TempDir Path dir)
            throws ExecutionException, InterruptedException, TimeoutException {
        broker.createTopic(P + "in", 1);
        broker.createTopic(P + "out", 1);
        long base = BaseTime.recentPast();
        produce(broker, base, base + 10 * YEAR, base + 20_000);
        try (WeirStreams app = app(broker, dir)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> metric(app, WeirMetrics.LATE_RECORDS_DROPPED) == 1);
            app.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
        }
        try (WeirStreams app = app(broker, dir)) {
            produce(broker, base + 30_000);
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> metric(app, WeirMetrics.RECORDS_CONSUMED) >= 1);
            assertEquals(
                    1,
                    metric(app, WeirMetrics.LATE_RECORDS_DROPPED),
                    "a restart alone keeps the wrong watermark: still late");
            app.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
        }

        TopicPartition in = new TopicPartition(P + "in", 0);
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(P + "app")
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .get(in);
            assertTrue(committed.metadata().contains("w="), "Weir commits its event time with the offset");
            // What kafka-consumer-groups.sh --reset-offsets --to-current --execute commits.
            admin.alterConsumerGroupOffsets(P + "app", Map.of(in, new OffsetAndMetadata(committed.offset())))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }

        produce(broker, base + 40_000, base + 50_000);
        try (WeirStreams app = app(broker, dir)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertTrue(
                            TopicReader.read(broker, P + "out", "read_committed").stream()
                                    .anyMatch(r -> r.timestamp() == base + 49_999),
                            "the window of base + 40 s fired"));
            assertEquals(0, metric(app, WeirMetrics.LATE_RECORDS_DROPPED), "event time started afresh from the data");
        }
    }

    @Test
    void byDefaultARecordYearsAheadIsRefusedAndLeavesTheWatermarkAlone(KafkaBroker broker, @TempDir Path dir) {
        String p = "wm-default-skew-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        long base = BaseTime.recentPast();
        produce(broker, p, base, base + 10 * YEAR, base + 20_000, base + 5_000);
        try (WeirStreams app = app(broker, dir, p, WatermarkStrategy.forMonotonousTimestamps())) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> metric(app, WeirMetrics.RECORDS_CONSUMED) >= 4);
            assertEquals(1, metric(app, WeirMetrics.FUTURE_RECORDS_DROPPED), "max.future.skew.ms: one hour");
            assertEquals(1, metric(app, WeirMetrics.LATE_RECORDS_DROPPED), "only base + 5 s, behind base + 20 s");
        }
    }
}
