package io.weir.streams.test.kafka;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Broker selection order: explicit bootstrap, then Testcontainers when asked and possible, else in-JVM. */
class KafkaBrokersTest {

    @AfterEach
    void clear() {
        System.clearProperty(KafkaBrokers.BOOTSTRAP_PROPERTY);
        System.clearProperty(KafkaBrokers.BROKER_PROPERTY);
    }

    @Test
    void anExplicitBootstrapWins() {
        System.setProperty(KafkaBrokers.BOOTSTRAP_PROPERTY, "broker-1:9092,broker-2:9092");
        System.setProperty(KafkaBrokers.BROKER_PROPERTY, "testcontainers");
        try (KafkaBroker broker = KafkaBrokers.fromEnvironment()) {
            assertInstanceOf(ExternalKafkaBroker.class, broker);
            assertEquals("broker-1:9092,broker-2:9092", broker.bootstrapServers());
            assertThrows(UnsupportedOperationException.class, broker::stop);
        }
    }

    @Test
    void anUnreachableExplicitBootstrapFailsNamingTheAddress() {
        String nobody = "127.0.0.1:" + FreePorts.pick();
        try (KafkaBroker broker = ExternalKafkaBroker.at(nobody)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, broker::start);
            assertTrue(
                    e.getMessage().startsWith("Cannot reach a Kafka broker at " + nobody + " within 15 s"),
                    e.getMessage());
        }
    }

    @Test
    void theInJvmBrokerIsTheDefault() {
        try (KafkaBroker broker = KafkaBrokers.fromEnvironment()) {
            assertInstanceOf(EmbeddedKafkaBroker.class, broker);
        }
    }

    @Test
    void testcontainersIsUsedOnlyWhenDockerAnswers() {
        System.setProperty(KafkaBrokers.BROKER_PROPERTY, "testcontainers");
        boolean docker = org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        try (KafkaBroker broker = KafkaBrokers.fromEnvironment()) {
            Class<? extends KafkaBroker> expected =
                    docker ? TestcontainersKafkaBroker.class : EmbeddedKafkaBroker.class;
            assertEquals(expected, broker.getClass());
        }
    }

    @Test
    void anUnknownBrokerKindIsRejected() {
        System.setProperty(KafkaBrokers.BROKER_PROPERTY, "zookeeper");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, KafkaBrokers::fromEnvironment);
        assertTrue(e.getMessage().contains("weir.kafka.broker=zookeeper"), e.getMessage());
    }
}
