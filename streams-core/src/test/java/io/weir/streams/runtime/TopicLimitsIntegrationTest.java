package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ProductionError;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.weir.streams.runtime.TopicReader.header;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Kafka 4 broker refuses records stamped more than an hour ahead of its clock; outputs carry their event
 * times. Such an output must reach the sink's production handler before it poisons the transaction the
 * other outputs ride in, and repartition topics, which carry event times, must take any.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TopicLimitsIntegrationTest {

    private static final long HOUR = 3_600_000;

    /** Event time from the value (each one trusted), passed on to "out" with {@code handler}. */
    private static WeirStreams passing(KafkaBroker broker, Path dir, String p, ProductionErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", trusting())
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()).withErrorHandler(handler));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put("commit.interval.ms", 100);
        return new WeirStreams(builder.build(), config);
    }

    private static Consumed<String, String> trusting() {
        return Consumed.with(Serdes.String(), Serdes.String())
                .withTimestamps(Long::parseLong)
                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps().withoutMaxFutureSkew());
    }

    private static void produce(KafkaBroker broker, String topic, long... eventTimes) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < eventTimes.length; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, Long.toString(eventTimes[i])));
            }
        }
    }

    @Test
    void anOutputTheBrokerWouldRefuseForItsTimestampIsDeadLetteredAndTheOthersCommit(
            KafkaBroker broker, @TempDir Path dir) {
        String p = "limits-dlq-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        broker.createTopic(p + "dlq", 1);
        long now = System.currentTimeMillis();
        produce(broker, p + "in", now, now + 2 * HOUR, now + 1);
        try (WeirStreams app = passing(broker, dir, p, ProductionErrorHandler.deadLetterTo(p + "dlq"))) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertEquals(List.of("k0", "k2"), TopicReader.keys(read(broker, p + "out", "read_committed")));
                assertEquals(List.of("k1"), TopicReader.keys(read(broker, p + "dlq", "read_committed")));
            });
            ConsumerRecord<String, String> letter =
                    read(broker, p + "dlq", "read_committed").get(0);
            assertEquals("TIMESTAMP_OUT_OF_RANGE", header(letter, DeadLetterRecord.REASON_HEADER));
            for (String topic : List.of(p + "out", p + "dlq")) {
                assertEquals(
                        read(broker, topic, "read_committed").size(),
                        read(broker, topic, "read_uncommitted").size(),
                        "no transaction was aborted writing " + topic);
            }
            assertEquals(WeirStreams.State.RUNNING, app.state());
        }
    }

    @Test
    void byDefaultSuchAnOutputFailsTheInstanceNamingTheReasonAfterOneReplacement(
            KafkaBroker broker, @TempDir Path dir) {
        String p = "limits-fail-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        long now = System.currentTimeMillis();
        produce(broker, p + "in", now, now + 2 * HOUR);
        AtomicInteger failures = new AtomicInteger();
        try (WeirStreams app = passing(broker, dir, p, ProductionErrorHandler.fail())) {
            app.setUncaughtExceptionHandler(e -> {
                failures.incrementAndGet();
                return StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD;
            });
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.ERROR);
            ProductionError error =
                    assertInstanceOf(ProductionError.class, app.error().orElseThrow());
            assertEquals(ProductionError.Reason.TIMESTAMP_OUT_OF_RANGE, error.reason());
            assertEquals(2, failures.get(), "replaced once; the same record then failed the instance");
        }
    }

    @Test
    void repartitionTopicsTakeEventTimesFarAhead(KafkaBroker broker, @TempDir Path dir) throws Exception {
        String p = "limits-repartition-";
        broker.createTopic(p + "in", 1);
        long now = System.currentTimeMillis();
        produce(broker, p + "in", now + 2 * HOUR, now + 3 * HOUR);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", trusting())
                .selectKey((k, v) -> "all")
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put("commit.interval.ms", 100);
        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .untilAsserted(() -> assertEquals(
                            2L,
                            app.store("counts", QueryableStoreType.<String, Long>keyValueStore())
                                    .get("all")));
        }
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            String repartition = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(p + "app") && t.endsWith("-repartition"))
                    .findFirst()
                    .orElseThrow();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, repartition);
            Config topic = admin.describeConfigs(Set.of(resource))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(resource);
            assertEquals(
                    Long.toString(Long.MAX_VALUE),
                    topic.get(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG).value());
            assertTrue(topic.get(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG)
                    .value()
                    .equals(Long.toString(Long.MAX_VALUE)));
        }
    }
}
