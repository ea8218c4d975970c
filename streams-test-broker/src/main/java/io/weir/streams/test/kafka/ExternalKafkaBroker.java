package io.weir.streams.test.kafka;

import io.weir.streams.internals.testkit.TopicAdmin;

import java.time.Duration;
import java.util.Map;

/**
 * A broker (or cluster) that runs outside this JVM and that the test kit neither starts nor stops,
 * named by its bootstrap address. Topics are created with replication factor 1.
 */
public final class ExternalKafkaBroker implements KafkaBroker {

    private static final Duration REACH_TIMEOUT = Duration.ofSeconds(15);

    private final String bootstrapServers;
    private final TopicAdmin topics;

    private ExternalKafkaBroker(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        this.topics = new TopicAdmin(bootstrapServers);
    }

    /**
     * A broker reachable at {@code bootstrapServers} ({@code host:port[,host:port...]}).
     *
     * @param bootstrapServers the brokers' addresses, comma-separated
     * @return a handle on the broker; {@link #start()} checks that it answers
     * @throws IllegalArgumentException if {@code bootstrapServers} is null or blank
     */
    public static ExternalKafkaBroker at(String bootstrapServers) {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must name at least one host:port");
        }
        return new ExternalKafkaBroker(bootstrapServers.trim());
    }

    /** Checks that a broker answers at the address within 15 s, failing with a message naming it. */
    @Override
    public ExternalKafkaBroker start() {
        topics.awaitReachable(REACH_TIMEOUT);
        return this;
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        topics.create(name, partitions, configs);
    }

    @Override
    public boolean supportsRestart() {
        return false;
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("An external broker at " + bootstrapServers
                + " cannot be stopped by the test kit; use the in-JVM broker for fault tests");
    }

    @Override
    public void close() {
        topics.close();
    }

    @Override
    public String toString() {
        return "ExternalKafkaBroker[" + bootstrapServers + "]";
    }
}
