package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code state.cleanup.delay.ms} on a real broker: an instance deletes the directory of a task that moved to
 * another instance once the delay has passed, keeps the directories of the tasks it runs and of its standby
 * copies, keeps a moved task's directory while the delay lasts, and at start deletes the directories of
 * sub-topologies the topology does not have, leaving other entries alone.
 */
@ExtendWith(KafkaBrokerExtension.class)
class StateCleanupTest {

    private static final int PARTITIONS = 2;

    private static WeirStreams start(KafkaBroker broker, String app, Path dir, long delayMs, int standbys) {
        Map<String, Object> config = WindowedCountApp.config(broker, app, dir);
        config.put(StreamsConfig.STATE_CLEANUP_DELAY_MS, delayMs);
        config.put(StreamsConfig.NUM_STANDBY_REPLICAS, standbys);
        WeirStreams streams = new WeirStreams(InteractiveQueryIntegrationTest.counts(app + "-in"), config);
        try {
            streams.start();
        } catch (RuntimeException e) {
            streams.close();
            throw e;
        }
        return streams;
    }

    private static void produce(KafkaBroker broker, String topic) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "x"));
            }
        }
    }

    private static Set<String> active(WeirStreams streams) {
        Set<String> tasks = new TreeSet<>();
        streams.localThreads().forEach(t -> tasks.addAll(t.activeTasks()));
        return tasks;
    }

    private static Set<String> standbys(WeirStreams streams) {
        Set<String> tasks = new TreeSet<>();
        for (ThreadMetadata t : streams.localThreads()) {
            tasks.addAll(t.standbyTasks());
        }
        return tasks;
    }

    private static long deleted(WeirStreams streams) {
        return streams.allMetrics().stream()
                .filter(m -> m.name().equals(WeirMetrics.STATE_DIRECTORIES_DELETED))
                .mapToLong(m -> (long) m.value())
                .sum();
    }

    private static void close(WeirStreams streams) {
        assertTrue(streams.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true)));
    }

    /**
     * The first instance runs both tasks and writes their stores, then a second instance joins and takes one:
     * returns the task that moved.
     */
    private static String moveOneTask(WeirStreams first, WeirStreams second) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> active(second).size() == 1 && active(first).size() == 1);
        String moved = active(second).iterator().next();
        assertFalse(active(first).contains(moved));
        return moved;
    }

    private static WeirStreams runBothTasks(KafkaBroker broker, String app, Path dir, long delayMs, int standbys) {
        broker.createTopic(app + "-in", PARTITIONS);
        produce(broker, app + "-in");
        WeirStreams first = start(broker, app, dir, delayMs, standbys);
        Path appDir = dir.resolve(app);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> active(first).size() == PARTITIONS
                        && Files.isDirectory(appDir.resolve("0_0").resolve("counts"))
                        && Files.isDirectory(appDir.resolve("0_1").resolve("counts")));
        return first;
    }

    @Test
    void aTaskThatMovedAwayLosesItsDirectoryAfterTheDelayAndTheTasksRunHereKeepTheirs(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) throws IOException {
        String app = "cleanup-moved";
        Path appDir = first.resolve(app);
        // Left by an earlier version of the topology, with a third sub-topology, and an entry that is not Weir's.
        Files.createDirectories(appDir.resolve("2_0").resolve("old-store"));
        Files.writeString(appDir.resolve("notes.txt"), "the operator's");
        WeirStreams a = runBothTasks(broker, app, first, 500, 0);
        try {
            assertFalse(Files.exists(appDir.resolve("2_0")), "a sub-topology the topology does not have");
            assertTrue(Files.isRegularFile(appDir.resolve("notes.txt")), "not Weir's: left alone");
            WeirStreams b = start(broker, app, second, 500, 0);
            try {
                String moved = moveOneTask(a, b);
                String kept = active(a).iterator().next();
                await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(appDir.resolve(moved)));
                assertTrue(Files.isDirectory(appDir.resolve(kept).resolve("counts")), "the task it runs");
                assertEquals(2, deleted(a), "the old sub-topology's directory, and the moved task's");
                assertTrue(Files.isRegularFile(appDir.resolve("weir-process-id")));
                assertTrue(Files.isRegularFile(appDir.resolve(".lock")));
            } finally {
                close(b);
            }
            // Its task comes back to the first instance, which rebuilds it from the changelog.
            await().atMost(Duration.ofSeconds(60)).until(() -> active(a).size() == PARTITIONS);
        } finally {
            close(a);
        }
    }

    @Test
    void aStandbyCopyKeepsItsDirectory(KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        afterOneTaskMoved(broker, "cleanup-standby", first, second, 2_000, 1, (a, moved) -> {
            Path appDir = first.resolve("cleanup-standby");
            await().atMost(Duration.ofSeconds(60)).until(() -> standbys(a).equals(Set.of(moved)));
            await().during(Duration.ofSeconds(4))
                    .atMost(Duration.ofSeconds(8))
                    .until(() -> standbys(a).equals(Set.of(moved))
                            && Files.isDirectory(appDir.resolve(moved).resolve("counts")));
            assertEquals(0, deleted(a));
        });
    }

    @Test
    void aMovedTaskKeepsItsDirectoryWhileTheDelayLasts(KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        afterOneTaskMoved(broker, "cleanup-delay", first, second, 600_000, 0, (a, moved) -> {
            Path appDir = first.resolve("cleanup-delay");
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> Files.isDirectory(appDir.resolve(moved).resolve("counts")));
            assertEquals(0, deleted(a));
        });
    }

    /**
     * Runs both tasks on an instance on {@code first}, moves one to a second instance on {@code second},
     * and hands the first instance and the moved task to {@code check} while both run.
     */
    private static void afterOneTaskMoved(
            KafkaBroker broker,
            String app,
            Path first,
            Path second,
            long delayMs,
            int standbys,
            BiConsumer<WeirStreams, String> check) {
        WeirStreams a = runBothTasks(broker, app, first, delayMs, standbys);
        try {
            WeirStreams b = start(broker, app, second, delayMs, standbys);
            try {
                check.accept(a, moveOneTask(a, b));
            } finally {
                close(b);
            }
        } finally {
            close(a);
        }
    }
}
