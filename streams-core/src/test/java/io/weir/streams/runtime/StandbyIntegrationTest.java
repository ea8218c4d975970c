package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.HostInfo;
import io.weir.streams.KeyMetadata;
import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirStreams;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreLag;
import io.weir.streams.state.StoreQuery;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standby and warm-up replicas on a real broker under exactly-once: a copy of each task is kept on the
 * other instance, follows the changelog, and when the active's instance leaves, takes over replaying only
 * what it had not read; a new instance warms up copies before it takes tasks over.
 */
@ExtendWith(KafkaBrokerExtension.class)
class StandbyIntegrationTest {

    private static final int PARTITIONS = 2;
    private static final int KEYS = 2_000;

    /** An instance with one standby copy per task, counting the changelog records its restores replay. */
    private static final class Instance implements AutoCloseable {
        final WeirStreams streams;
        final AtomicLong restored = new AtomicLong();

        Instance(KafkaBroker broker, String app, Path dir, int port, int standbys) {
            this(broker, app, dir, port, Map.of(StreamsConfig.NUM_STANDBY_REPLICAS, standbys));
        }

        Instance(KafkaBroker broker, String app, Path dir, int port, Map<String, Object> settings) {
            Map<String, Object> config = WindowedCountApp.config(broker, app, dir);
            config.putAll(settings);
            config.put(StreamsConfig.APPLICATION_SERVER, "localhost:" + port);
            streams = new WeirStreams(InteractiveQueryIntegrationTest.counts(app + "-in"), config);
            streams.setRestoreListener(new RestoreListener() {
                @Override
                public void onBatchRestored(TopicPartition changelog, String store, long position, long count) {
                    restored.addAndGet(count);
                }
            });
            streams.start();
        }

        Set<String> active() {
            Set<String> tasks = new TreeSet<>();
            streams.localThreads().forEach(t -> tasks.addAll(t.activeTasks()));
            return tasks;
        }

        Set<String> standbys() {
            Set<String> tasks = new TreeSet<>();
            for (ThreadMetadata t : streams.localThreads()) {
                tasks.addAll(t.standbyTasks());
            }
            return tasks;
        }

        long standbyLag() {
            return streams.metrics().getOrDefault("standby/lag-records", -1L);
        }

        @Override
        public void close() {
            streams.close(Duration.ofSeconds(30));
        }
    }

    private static Map<String, Long> produce(KafkaBroker broker, String topic, int records) {
        Map<String, Long> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                String key = "k" + i % KEYS;
                producer.send(new ProducerRecord<>(topic, key, "x"));
                expected.merge(key, 1L, Long::sum);
            }
        }
        return expected;
    }

    /** Waits until the two instances' stores together hold {@code expected}. */
    private static void awaitBoth(
            Map<String, Long> expected,
            ReadOnlyKeyValueStore<String, Long> onA,
            ReadOnlyKeyValueStore<String, Long> onB) {
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                .untilAsserted(() -> {
                    Map<String, Long> both = new TreeMap<>(all(onA));
                    both.putAll(all(onB));
                    assertTrue(
                            expected.equals(both),
                            both.size() + " keys of " + expected.size() + ", or a count differs");
                });
    }

    private static Map<String, Long> all(ReadOnlyKeyValueStore<String, Long> store) {
        Map<String, Long> out = new TreeMap<>();
        store.forEach(out::put);
        return out;
    }

    @Test
    void aStandbyOnTheOtherInstanceAnswersStaleReadsAndTakesOverReplayingOnlyWhatItHadNotRead(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("standby-in", PARTITIONS);
        Map<String, Long> expected = produce(broker, "standby-in", 3 * KEYS);
        try (Instance a = new Instance(broker, "standby", first, 7201, 1)) {
            Instance b = new Instance(broker, "standby", second, 7202, 1);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.active().size() == 1
                            && b.active().size() == 1
                            && a.standbys().equals(b.active())
                            && b.standbys().equals(a.active()));
            ReadOnlyKeyValueStore<String, Long> onA = a.streams.store("counts", QueryableStoreType.keyValueStore());
            ReadOnlyKeyValueStore<String, Long> onB = b.streams.store("counts", QueryableStoreType.keyValueStore());
            awaitBoth(expected, onA, onB);
            await().atMost(Duration.ofSeconds(30)).until(() -> a.standbyLag() == 0 && b.standbyLag() == 0);
            // Stale reads: a's standby copy answers for b's partition, at the lag a states.
            ReadOnlyKeyValueStore<String, Long> staleOnA =
                    a.streams.store(StoreQuery.of("counts", QueryableStoreType.<String, Long>keyValueStore())
                            .withStaleReads(true));
            Map<String, Long> stale = all(staleOnA);
            assertTrue(
                    expected.equals(stale),
                    "the active and the standby copy together hold every key: " + stale.size() + " of "
                            + expected.size() + " keys; copies " + a.streams.localStoreLags());
            assertTrue(all(onA).size() < expected.size(), "without stale reads, only a's active partition");
            Map<Integer, StoreLag> lags = a.streams.localStoreLags().get("counts");
            assertEquals(
                    Set.of(new StoreLag(false, 0), new StoreLag(true, 0)),
                    Set.copyOf(lags.values()),
                    "one active copy and one caught-up standby copy: " + lags);
            KeyMetadata metadata = a.streams
                    .metadataForKey("counts", "k1", Serdes.String().serializer())
                    .orElseThrow();
            HostInfo other = metadata.activeHost().port() == 7201
                    ? new HostInfo("localhost", 7202)
                    : new HostInfo("localhost", 7201);
            assertEquals(Set.of(other), metadata.standbyHosts(), "the copy is on the other instance");

            long restoredBefore = a.restored.get();
            assertTrue(
                    b.streams.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true)));
            await().atMost(Duration.ofSeconds(30)).until(() -> a.active().size() == PARTITIONS);
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> assertEquals(expected, all(onA)));
            // The moved task's changelog holds about KEYS / PARTITIONS records; the copy had read them all.
            assertTrue(
                    a.restored.get() - restoredBefore < 10,
                    "the takeover replayed " + (a.restored.get() - restoredBefore) + " records");
            assertTrue(a.standbys().isEmpty(), "no other instance is left to hold a copy for");
        }
    }

    @Test
    void aNewInstanceTakesItsShareOnlyOnceItsWarmupCopiesCaughtUp(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("warmup-in", PARTITIONS);
        Map<String, Long> expected = produce(broker, "warmup-in", 3 * KEYS);
        // No standbys: the new instance has nothing of the tasks' state until it warms up copies.
        Map<String, Object> settings =
                Map.of(StreamsConfig.NUM_STANDBY_REPLICAS, 0, StreamsConfig.ACCEPTABLE_RECOVERY_LAG, 10L);
        try (Instance a = new Instance(broker, "warmup", first, 7211, settings)) {
            ReadOnlyKeyValueStore<String, Long> onA = a.streams.store("counts", QueryableStoreType.keyValueStore());
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> assertEquals(expected, all(onA)));
            try (Instance b = new Instance(broker, "warmup", second, 7212, settings)) {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> a.active().size() == 1 && b.active().size() == 1);
                // Each task's changelog holds about KEYS / PARTITIONS records; the warm-up had read them.
                assertTrue(b.restored.get() <= 10, "the new owner replayed " + b.restored.get() + " records");
                ReadOnlyKeyValueStore<String, Long> onB = b.streams.store("counts", QueryableStoreType.keyValueStore());
                awaitBoth(expected, onA, onB);
                assertTrue(b.standbys().isEmpty(), "the warm-up became the task: " + b.standbys());
            }
        }
    }
}
