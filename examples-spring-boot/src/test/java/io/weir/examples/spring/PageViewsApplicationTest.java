package io.weir.examples.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Boots the example as it ships, pointed at the test kit's broker. */
@ExtendWith(KafkaBrokerExtension.class)
class PageViewsApplicationTest {

    @Test
    void countsPageViewsAndReportsHealthAndMetrics(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic(PageViewsApplication.INPUT, 2);
        broker.createTopic(PageViewsApplication.OUTPUT, 2);
        try (ConfigurableApplicationContext context = SpringApplication.run(
                PageViewsApplication.class,
                "--weir.bootstrap.servers=" + broker.bootstrapServers(),
                "--weir.state.dir=" + dir)) {
            WeirStreams streams = context.getBean(WeirStreams.class);
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == WeirStreams.State.RUNNING);
            HealthIndicator health = context.getBean("weirHealthIndicator", HealthIndicator.class);
            assertEquals(Status.UP, health.health().getStatus());

            Map<String, Long> expected = new TreeMap<>();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 60; i++) {
                    String page = "/page/" + (i % 7);
                    producer.send(new ProducerRecord<>(PageViewsApplication.INPUT, page, "user-" + i));
                    expected.merge(page, 1L, Long::sum);
                }
            }
            assertEquals(expected, latestCounts(broker, expected));
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertEquals(
                    2.0,
                    registry.get("weir.thread.tasks.running").gauge().value(),
                    "the actuator's registry has Weir's meters");
        }
    }

    /** The last committed count of each page, read until it matches {@code expected} or time runs out. */
    private static Map<String, Long> latestCounts(KafkaBroker broker, Map<String, Long> expected) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "page-view-counts-reader");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Long> latest = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new LongDeserializer())) {
            consumer.subscribe(java.util.List.of(PageViewsApplication.OUTPUT));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                    latest.put(r.key(), r.value());
                }
                return latest.equals(expected);
            });
        }
        return latest;
    }
}
