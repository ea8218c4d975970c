package io.weir.streams.spring;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The starter booting real contexts against a broker: one rule per test. */
@ExtendWith(KafkaBrokerExtension.class)
class WeirAutoConfigurationTest {

    /** An application with one Topology bean: upper-cases values from "{name}-in" to "{name}-out". */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class UpperCaseApp {
        @Bean
        Topology topology(org.springframework.core.env.Environment env) {
            String name = env.getRequiredProperty("spring.application.name");
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream(name + "-in", Consumed.with(Serdes.String(), Serdes.String()))
                    .mapValues(v -> v.toUpperCase(java.util.Locale.ROOT))
                    .to(name + "-out", Produced.with(Serdes.String(), Serdes.String()));
            return builder.build();
        }
    }

    /** An application without a Topology bean. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class NoTopologyApp {}

    private static ConfigurableApplicationContext boot(Class<?> app, String... properties) {
        return new SpringApplicationBuilder(app)
                .web(WebApplicationType.NONE)
                .properties(properties)
                .run();
    }

    private static List<String> committedValues(KafkaBroker broker, String topic, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "reader-" + topic,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
                return values.size() >= expected;
            });
        }
        return values;
    }

    @Test
    void aTopologyBeanRunsAsAManagedInstanceWithHealthAndMetrics(KafkaBroker broker, @TempDir Path dir)
            throws Exception {
        broker.createTopic("boot-in", 2);
        broker.createTopic("boot-out", 2);
        WeirStreams streams;
        try (ConfigurableApplicationContext context = boot(
                UpperCaseApp.class,
                "spring.application.name=boot",
                "weir.bootstrap.servers=" + broker.bootstrapServers(),
                "weir.state.dir=" + dir,
                "weir.consumer.session.timeout.ms=10000")) {
            streams = context.getBean(WeirStreams.class);
            await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == WeirStreams.State.RUNNING);
            WeirHealthIndicator health = context.getBean("weirHealthIndicator", WeirHealthIndicator.class);
            Health up = health.health();
            assertEquals(Status.UP, up.getStatus());
            assertEquals("RUNNING", up.getDetails().get("state"));

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("boot-in", "k" + i, "v" + i));
                }
            }
            List<String> out = committedValues(broker, "boot-out", 20);
            assertEquals(20, out.size());
            assertTrue(out.stream().allMatch(v -> v.startsWith("V")), out.toString());

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertEquals(
                            20,
                            registry.find("weir.node.records.consumed").functionCounters().stream()
                                    .mapToDouble(FunctionCounter::count)
                                    .sum()));
            assertEquals(
                    "boot",
                    registry.get("weir.application.state").gauge().getId().getTag("application"));
        }
        assertEquals(WeirStreams.State.NOT_RUNNING, streams.state(), "the context closes the instance");
        assertTrue(ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("io.weir.streams:application=boot,*"), null)
                .isEmpty());
    }

    @Test
    void aWeirPropertyWeirDoesNotKnowFailsTheStartNamingIt(KafkaBroker broker, @TempDir Path dir) {
        RuntimeException e = assertThrows(
                RuntimeException.class,
                () -> boot(
                        UpperCaseApp.class,
                        "spring.application.name=boot-bad",
                        "weir.bootstrap.servers=" + broker.bootstrapServers(),
                        "weir.state.dir=" + dir,
                        "weir.no.such.setting=1"));
        Throwable cause = e;
        StringBuilder messages = new StringBuilder();
        while (cause != null) {
            messages.append(cause.getMessage()).append('\n');
            cause = cause.getCause();
        }
        assertTrue(messages.toString().contains("no.such.setting"), messages.toString());
    }

    @Test
    void withoutATopologyBeanTheStarterAddsNothing() {
        try (ConfigurableApplicationContext context = boot(NoTopologyApp.class)) {
            assertTrue(context.getBeansOfType(WeirStreams.class).isEmpty());
            assertTrue(context.getBeansOfType(WeirHealthIndicator.class).isEmpty());
        }
    }

    @Test
    void healthFollowsTheState() {
        assertEquals(Status.UP, WeirHealthIndicator.status(WeirStreams.State.RUNNING));
        assertEquals(Status.UP, WeirHealthIndicator.status(WeirStreams.State.REBALANCING));
        assertEquals(Status.OUT_OF_SERVICE, WeirHealthIndicator.status(WeirStreams.State.CREATED));
        assertEquals(Status.OUT_OF_SERVICE, WeirHealthIndicator.status(WeirStreams.State.PENDING_SHUTDOWN));
        assertEquals(Status.DOWN, WeirHealthIndicator.status(WeirStreams.State.NOT_RUNNING));
        assertEquals(Status.DOWN, WeirHealthIndicator.status(WeirStreams.State.ERROR));
    }
}
