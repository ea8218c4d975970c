package io.weir.streams.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binder against instances running on a broker: one rule per test. */
@ExtendWith(KafkaBrokerExtension.class)
class WeirStreamsMetricsTest {

    private static WeirStreams instance(KafkaBroker broker, String app, Path dir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(app + "-in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to(app + "-out");
        Topology topology = builder.build();
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, app);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put("consumer.session.timeout.ms", 10_000);
        return new WeirStreams(topology, config);
    }

    private static void produce(KafkaBroker broker, String topic, int count) {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i % 10, "v"));
            }
        }
    }

    private static double consumed(MeterRegistry registry) {
        return registry.find("weir.node.records.consumed").functionCounters().stream()
                .mapToDouble(FunctionCounter::count)
                .sum();
    }

    private static Set<String> tasks(MeterRegistry registry) {
        Set<String> tasks = new TreeSet<>();
        for (Meter m : registry.getMeters()) {
            String task = m.getId().getTag("task");
            if (task != null && m.getId().getName().startsWith("weir.node.")) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    @Test
    void metersAreTaggedAndMoveAsRecordsFlow(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("mm-in", 2);
        broker.createTopic("mm-out", 2);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (WeirStreams app = instance(broker, "mm", dir)) {
            WeirStreamsMetrics metrics = new WeirStreamsMetrics(app, Tags.of("region", "eu"));
            metrics.bindTo(registry);
            app.start();
            produce(broker, "mm-in", 100);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertEquals(100, consumed(registry)));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertTrue(
                            registry.get("weir.thread.commit").functionTimer().count() > 0));
            FunctionTimer process = registry.get("weir.thread.process").functionTimer();
            assertEquals(100, process.count(), 0.0);
            assertEquals(2.0, registry.get("weir.thread.tasks.running").gauge().value());
            assertEquals(2.0, registry.get("weir.application.state").gauge().value());

            String scrape = registry.scrape();
            assertTrue(
                    scrape.lines()
                            .anyMatch(l -> l.startsWith("weir_node_records_consumed_total{")
                                    && l.contains("application=\"mm\"")
                                    && l.contains("node=\"source:mm-in\"")
                                    && l.contains("region=\"eu\"")
                                    && l.contains("task=\"0_1\"")),
                    scrape);
            assertTrue(scrape.contains("weir_thread_commit_seconds_count{"), scrape);
            assertTrue(scrape.contains("weir_thread_commit_max_seconds{"), scrape);

            metrics.close();
            assertTrue(registry.getMeters().isEmpty(), "closing the binder removes its meters");
        }
    }

    @Test
    void metersOfATaskThatMovesAwayAreRemoved(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("mm-move-in", 2);
        broker.createTopic("mm-move-out", 2);
        produce(broker, "mm-move-in", 50);
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        try (WeirStreams a = instance(broker, "mm-move", dir.resolve("a"));
                WeirStreamsMetrics aMetrics = new WeirStreamsMetrics(a)) {
            aMetrics.bindTo(first);
            a.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertEquals(50, consumed(first)));
            assertEquals(Set.of("0_0", "0_1"), tasks(first));
            try (WeirStreams b = instance(broker, "mm-move", dir.resolve("b"));
                    WeirStreamsMetrics bMetrics = new WeirStreamsMetrics(b)) {
                b.start();
                bMetrics.bindTo(second);
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> tasks(first).size() == 1 && tasks(second).size() == 1);
                Set<String> both = new TreeSet<>(tasks(first));
                both.addAll(tasks(second));
                assertEquals(Set.of("0_0", "0_1"), both, "each task's meters live where the task runs");
            }
        }
        assertTrue(
                first.getMeters().stream().noneMatch(m -> m.getId().getName().startsWith("weir.node.")),
                "a closed instance's operators are gone");
    }

    @Test
    void aBinderBindsToOneRegistry(KafkaBroker broker, @TempDir Path dir) {
        try (WeirStreams app = instance(broker, "mm-once", dir);
                WeirStreamsMetrics metrics = new WeirStreamsMetrics(app)) {
            metrics.bindTo(new SimpleMeterRegistry());
            assertThrows(IllegalStateException.class, () -> metrics.bindTo(new SimpleMeterRegistry()));
        }
    }
}
