package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A changelog that changed underneath its stores is told apart by its topic id, never replayed onto
 * another history: a changelog recreated with records rebuilds the store from them; a deleted one (made
 * again, empty, at start) fails the task naming the store, unless {@code changelog.deleted.rebuild} lets
 * the store start empty.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ChangelogRecreationTest {

    private static final String P = "changelog-id-";
    private static final String CHANGELOG = P + "app-counts-changelog";

    private static WeirStreams app(KafkaBroker broker, Path dir, boolean rebuildDeleted) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(P + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        Map<String, Object> config = WindowedCountApp.config(broker, P + "app", dir);
        config.put("commit.interval.ms", 100);
        config.put(StreamsConfig.CHANGELOG_DELETED_REBUILD, rebuildDeleted);
        return new WeirStreams(builder.build(), config);
    }

    private static void produce(KafkaBroker broker, String... keys) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (String key : keys) {
                producer.send(new ProducerRecord<>(P + "in", key, "x"));
            }
        }
    }

    private static ReadOnlyKeyValueStore<String, Long> counts(WeirStreams app) {
        return app.store("counts", QueryableStoreType.keyValueStore());
    }

    private static void awaitCount(WeirStreams app, String key, long count) {
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                .until(() -> Long.valueOf(count).equals(counts(app).get(key)));
    }

    private static void close(WeirStreams app) {
        app.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
    }

    private static long rebuilds(WeirStreams app) {
        return app.allMetrics().stream()
                .filter(m -> m.name().equals(WeirMetrics.STORE_REBUILDS))
                .mapToLong(m -> (long) m.value())
                .sum();
    }

    /** The last record of {@code key} in the changelog, read_committed: (key bytes, value bytes). */
    private static byte[][] lastChangelogRecord(KafkaBroker broker, String key) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(CHANGELOG, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            while (consumer.position(tp) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            ConsumerRecord<byte[], byte[]> last = records.stream()
                    .filter(r -> Arrays.equals(k, r.key()))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            return new byte[][] {last.key(), last.value()};
        }
    }

    private static void deleteChangelog(Admin admin) throws Exception {
        admin.deleteTopics(List.of(CHANGELOG)).all().get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        !admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(CHANGELOG));
    }

    @Test
    void aRecreatedChangelogRebuildsTheStoreAndADeletedOneFailsTheTaskUnlessAllowed(
            KafkaBroker broker, @TempDir Path dir) throws Exception {
        broker.createTopic(P + "in", 1);
        byte[][] kAtThree;
        try (WeirStreams app = app(broker, dir, false)) {
            app.start();
            produce(broker, "k", "k", "k");
            awaitCount(app, "k", 3);
            kAtThree = lastChangelogRecord(broker, "k");
            produce(broker, "j", "j", "k", "k");
            awaitCount(app, "k", 5);
            awaitCount(app, "j", 2);
            close(app);
        }
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            deleteChangelog(admin);
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                admin.createTopics(List.of(new NewTopic(CHANGELOG, Optional.of(1), Optional.empty())
                                .configs(Map.of("cleanup.policy", "compact"))))
                        .all()
                        .get(10, TimeUnit.SECONDS);
                return true;
            });
            // Another history: k at 3, no j, and longer than the store's own changelog was.
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < 30; i++) {
                    producer.send(new ProducerRecord<>(CHANGELOG, 0, kAtThree[0], kAtThree[1]));
                }
            }
            try (WeirStreams app = app(broker, dir, false)) {
                app.start();
                awaitCount(app, "k", 3);
                assertNull(counts(app).get("j"), "the old history's rows are not replayed into");
                assertEquals(1, rebuilds(app));
                close(app);
            }

            deleteChangelog(admin);
            try (WeirStreams app = app(broker, dir, false)) {
                app.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.ERROR);
                String message = app.error().orElseThrow().getMessage();
                assertTrue(message.contains("Store counts of task 0_0") && message.contains("deleted"), message);
                assertTrue(message.contains(StreamsConfig.CHANGELOG_DELETED_REBUILD + "=true"), message);
            }
            try (WeirStreams app = app(broker, dir, true)) {
                app.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
                assertNull(counts(app).get("k"), "started empty, as allowed");
                assertEquals(1, rebuilds(app));
                assertTrue(admin.listTopics().names().get(10, TimeUnit.SECONDS).containsAll(Set.of(CHANGELOG)));
            }
        }
    }
}
