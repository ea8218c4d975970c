package io.weir.streams.test.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lifecycle of the in-JVM broker: restart on the same data, clean close, failures that explain themselves. */
class EmbeddedKafkaBrokerTest {

    @Test
    void anIdempotentProducersRecordsSurviveABrokerRestartExactlyOnce() throws Exception {
        int total = 3000;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create().start()) {
            broker.createTopic("restart", 1);
            String bootstrapBefore = broker.bootstrapServers();
            AtomicInteger acked = new AtomicInteger();
            try (KafkaProducer<String, String> producer = Clients.producer(
                    broker,
                    Map.of(
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                            true,
                            ProducerConfig.ACKS_CONFIG,
                            "all",
                            ProducerConfig.LINGER_MS_CONFIG,
                            5,
                            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                            120_000))) {
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < total; i++) {
                        producer.send(new ProducerRecord<>("restart", "k", Integer.toString(i)), (md, e) -> {
                            if (e == null) {
                                acked.incrementAndGet();
                            }
                        });
                        if (i % 100 == 0) {
                            producer.flush();
                        }
                    }
                    producer.flush();
                });
                await().atMost(Duration.ofSeconds(30)).until(() -> acked.get() >= total / 3);
                broker.restart();
                assertEquals(bootstrapBefore, broker.bootstrapServers(), "a restart keeps the address");
                sending.get();
            }
            assertEquals(total, acked.get(), "every send was acknowledged");
            List<String> values = Clients.readAll(broker, "restart", "read_uncommitted").stream()
                    .map(ConsumerRecord::value)
                    .collect(Collectors.toList());
            assertEquals(
                    IntStream.range(0, total).mapToObj(Integer::toString).collect(Collectors.toList()),
                    values,
                    "each record exactly once, in order");
        }
    }

    @Test
    void closeLeavesNoThreadsPortsOrDirectoriesAndIsIdempotent() {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create().start();
        broker.createTopic("close-me", 1);
        int port = Integer.parseInt(
                broker.bootstrapServers().substring(broker.bootstrapServers().lastIndexOf(':') + 1));
        Path dir = broker.logDir().orElseThrow();
        assertTrue(FreePorts.inUse(port));
        broker.stop();
        broker.stop();
        broker.close();
        broker.close();
        assertFalse(Files.exists(dir), "the broker's temp dir is deleted");
        assertFalse(FreePorts.inUse(port), "the broker's port is released");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(Set.of(), newLiveThreads(before)));
        assertThrows(IllegalStateException.class, broker::start, "a closed broker does not come back");
    }

    @Test
    void twoBrokersRunSideBySideInOneJvm() {
        try (EmbeddedKafkaBroker first = EmbeddedKafkaBroker.create().start();
                EmbeddedKafkaBroker second = EmbeddedKafkaBroker.create().start()) {
            for (EmbeddedKafkaBroker broker : List.of(first, second)) {
                broker.createTopic("same-name", 1);
                try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
                    producer.send(new ProducerRecord<>("same-name", "k", broker.bootstrapServers()));
                }
            }
            assertEquals(
                    Set.of(first.bootstrapServers()),
                    Clients.values(Clients.readAll(first, "same-name", "read_uncommitted")));
            assertEquals(
                    Set.of(second.bootstrapServers()),
                    Clients.values(Clients.readAll(second, "same-name", "read_uncommitted")));
        }
    }

    @Test
    void aLogDirThatCannotBeCreatedFailsFastNamingIt(@TempDir Path temp) throws Exception {
        Path aFile = Files.writeString(temp.resolve("not-a-directory"), "x");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create().withLogDir(aFile.resolve("kafka"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, broker::start);
            assertTrue(
                    e.getMessage()
                            .startsWith("Cannot create the Kafka broker's log dir under " + aFile.resolve("kafka")),
                    e.getMessage());
        }
    }

    @Test
    void aBrokerThatDoesNotComeUpInTimeFailsWithItsLastLogLines() {
        // A broker-only node whose controller never answers cannot finish starting.
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()
                .withBrokerConfig("process.roles", "broker")
                .withBrokerConfig("node.id", "2")
                .withBrokerConfig("listeners", "PLAINTEXT://127.0.0.1:0")
                .withStartupTimeout(Duration.ofSeconds(3))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, broker::start);
            assertTrue(e.getMessage().contains("did not come up within 3000 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("Last broker log lines:"), e.getMessage());
            assertTrue(e.getMessage().contains("Broker warnings and errors:"), e.getMessage());
            assertTrue(e.getMessage().contains("Timed out while waiting for the controller"), e.getMessage());
        }
        // Kafka 4.4's failed-startup path skips closing its group and share coordinators (their
        // threads stay), so this checks only the kit's own startup thread.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().equals("weir-kafka-broker-startup")));
    }

    @Test
    void anInvalidBrokerConfigFailsWithKafkasReason() {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create().withBrokerConfig("process.roles", "broker")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, broker::start);
            assertTrue(e.getMessage().startsWith("Invalid config for the embedded Kafka broker: "), e.getMessage());
            assertTrue(e.getMessage().contains("node id 1 must not be included in the set of voters"), e.getMessage());
        }
    }

    @Test
    void anInvalidDurationIsRejectedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> EmbeddedKafkaBroker.create().withStartupTimeout(Duration.ZERO));
        assertTrue(e.getMessage().contains("startupTimeout"), e.getMessage());
    }

    /** Threads started since {@code before} that are still alive, by name. */
    static Set<String> newLiveThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(name -> !name.startsWith("awaitility"))
                .collect(Collectors.toSet());
    }
}
