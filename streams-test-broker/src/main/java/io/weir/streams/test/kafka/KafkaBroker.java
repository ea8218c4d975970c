package io.weir.streams.test.kafka;

import java.util.Map;

/**
 * A Kafka broker that tests talk to: an in-JVM KRaft broker, a Testcontainers container, or an
 * external cluster named by bootstrap address. Obtain one with {@link KafkaBrokers#fromEnvironment()}
 * or directly ({@link EmbeddedKafkaBroker#create()}).
 *
 * <p>Whoever creates a broker owns it and must {@link #close()} it; {@code close()} releases every
 * thread, port and directory the broker made. {@link #stop()} and {@link #close()} are idempotent.
 * Implementations are thread-safe.
 */
public interface KafkaBroker extends AutoCloseable {

    /**
     * Starts the broker if it is not running; returns once it accepts client requests.
     *
     * @return this broker, running
     */
    KafkaBroker start();

    /**
     * The {@code bootstrap.servers} value for clients of this broker.
     *
     * @return the {@code host:port} list
     */
    String bootstrapServers();

    /**
     * Creates a topic with replication factor 1 and waits until it is usable.
     *
     * @param name the topic's name
     * @param partitions the number of partitions; positive
     * @param configs topic configs, e.g. {@code cleanup.policy=compact}; may be empty
     * @throws IllegalStateException if the topic exists or the broker rejects the configs
     */
    void createTopic(String name, int partitions, Map<String, String> configs);

    /**
     * Creates a topic with the broker's default topic configs.
     *
     * @param name the topic's name
     * @param partitions the number of partitions; positive
     */
    default void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /**
     * Whether {@link #stop()} followed by {@link #start()} keeps the broker's data and address.
     *
     * @return true for the in-JVM broker; false for a container or an external broker
     */
    boolean supportsRestart();

    /**
     * Stops the broker and keeps its data, so that {@link #start()} brings it back on the same data
     * and the same ports (fault tests). Idempotent.
     *
     * @throws UnsupportedOperationException if {@link #supportsRestart()} is false
     */
    void stop();

    /** {@link #stop()} then {@link #start()}: the same data, the same bootstrap address. */
    default void restart() {
        stop();
        start();
    }

    /** Stops the broker and deletes whatever it created. Idempotent. */
    @Override
    void close();
}
