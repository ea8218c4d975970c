package io.weir.streams.test.kafka;

import io.weir.streams.internals.testkit.TopicAdmin;
import org.jspecify.annotations.Nullable;
import org.testcontainers.kafka.KafkaContainer;

import java.util.Map;

/**
 * An Apache Kafka broker (KRaft) in a Docker container started through Testcontainers. Needs a
 * Docker engine and Testcontainers on the test classpath. Stopping a container loses its data and
 * port mapping, so fault tests that restart the broker use {@link EmbeddedKafkaBroker} instead.
 */
public final class TestcontainersKafkaBroker implements KafkaBroker {

    /** The image matching the Kafka version Weir is built against. */
    public static final String DEFAULT_IMAGE = "apache/kafka:4.4.0";

    private final KafkaContainer container;
    private @Nullable TopicAdmin topics;

    private TestcontainersKafkaBroker(String image) {
        this.container = new KafkaContainer(image)
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_LOG_CLEANER_BACKOFF_MS", "500");
    }

    /**
     * A broker from {@link #DEFAULT_IMAGE}, not yet started.
     *
     * @return a broker from the default image
     */
    public static TestcontainersKafkaBroker create() {
        return new TestcontainersKafkaBroker(DEFAULT_IMAGE);
    }

    /**
     * A broker from another {@code apache/kafka} image tag, not yet started.
     *
     * @param image the Docker image, e.g. {@code apache/kafka:4.4.0}
     * @return a broker from that image
     */
    public static TestcontainersKafkaBroker create(String image) {
        return new TestcontainersKafkaBroker(image);
    }

    @Override
    public synchronized TestcontainersKafkaBroker start() {
        if (!container.isRunning()) {
            container.start();
            topics = new TopicAdmin(container.getBootstrapServers());
        }
        return this;
    }

    @Override
    public synchronized String bootstrapServers() {
        if (!container.isRunning()) {
            throw new IllegalStateException("The container is not running; call start() first");
        }
        return container.getBootstrapServers();
    }

    @Override
    public synchronized void createTopic(String name, int partitions, Map<String, String> configs) {
        if (topics == null) {
            throw new IllegalStateException("The container is not running; call start() first");
        }
        topics.create(name, partitions, configs);
    }

    @Override
    public boolean supportsRestart() {
        return false;
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException(
                "A Testcontainers broker loses its data and port when stopped; use EmbeddedKafkaBroker for restarts");
    }

    @Override
    public synchronized void close() {
        if (topics != null) {
            topics.close();
            topics = null;
        }
        container.stop();
    }

    @Override
    public String toString() {
        return "TestcontainersKafkaBroker[" + container.getDockerImageName() + "]";
    }
}
