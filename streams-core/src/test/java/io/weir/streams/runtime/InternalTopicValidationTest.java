package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Internal topics that exist already are checked before anything runs on them (KIP-698's checks): one made
 * with settings that would lose state or records is refused at start, naming it and the command that fixes
 * it; one made right is used as it is.
 */
@ExtendWith(KafkaBrokerExtension.class)
class InternalTopicValidationTest {

    /** in -> re-keyed by value -> counted per value in store "counts". */
    private static WeirStreams app(KafkaBroker broker, Path dir, String p) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((k, v) -> v)
                .groupByKey(Grouped.<String, String>with(Serdes.String(), Serdes.String())
                        .withName("by-value"))
                .count(Materialized.as("counts"));
        return new WeirStreams(builder.build(), WindowedCountApp.config(broker, p + "app", dir));
    }

    private static void create(KafkaBroker broker, String topic, Map<String, String> configs) throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()).configs(configs)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static String startFailure(WeirStreams app) {
        app.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.ERROR);
        return app.error().orElseThrow().getMessage();
    }

    @Test
    void aChangelogThatDeletesByTimeAndACompactedRepartitionTopicAreRefusedWithTheirFixes(
            KafkaBroker broker, @TempDir Path dir) throws Exception {
        String p = "validate-bad-";
        broker.createTopic(p + "in", 1);
        create(broker, p + "app-counts-changelog", Map.of("cleanup.policy", "delete", "retention.ms", "604800000"));
        create(broker, p + "app-by-value-repartition", Map.of("cleanup.policy", "compact"));
        try (WeirStreams app = app(broker, dir, p)) {
            String message = startFailure(app);
            assertTrue(message.contains(p + "app-counts-changelog has cleanup.policy=delete"), message);
            assertTrue(
                    message.contains("--entity-name " + p + "app-counts-changelog --add-config cleanup.policy=compact"),
                    message);
            assertTrue(message.contains(p + "app-by-value-repartition has cleanup.policy=compact"), message);
            assertTrue(message.contains("--add-config cleanup.policy=delete"), message);
        }
    }

    @Test
    void aRepartitionTopicWithFiniteRetentionIsRefused(KafkaBroker broker, @TempDir Path dir) throws Exception {
        String p = "validate-retention-";
        broker.createTopic(p + "in", 1);
        create(broker, p + "app-by-value-repartition", Map.of("cleanup.policy", "delete", "retention.ms", "3600000"));
        try (WeirStreams app = app(broker, dir, p)) {
            String message = startFailure(app);
            assertTrue(message.contains("retention.ms=3600000") && message.contains("retention.ms=-1"), message);
        }
    }

    @Test
    void internalTopicsMadeRightBeforehandAreUsedAsTheyAre(KafkaBroker broker, @TempDir Path dir) throws Exception {
        String p = "validate-good-";
        broker.createTopic(p + "in", 1);
        create(broker, p + "app-counts-changelog", Map.of("cleanup.policy", "compact"));
        create(broker, p + "app-by-value-repartition", Map.of("cleanup.policy", "delete", "retention.ms", "-1"));
        try (WeirStreams app = app(broker, dir, p)) {
            app.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.RUNNING);
            assertEquals(WeirStreams.State.RUNNING, app.state());
        }
    }
}
