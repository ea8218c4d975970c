package io.weir.streams.internals.testkit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates topics on one broker through a lazily opened {@link Admin} client. Owns that client:
 * {@link #close()} closes it, and a later {@link #create} opens a new one. Thread-safe.
 */
public final class TopicAdmin implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 30;

    private final String bootstrapServers;
    private Admin admin;

    public TopicAdmin(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Fails with a message naming the address unless a broker there answers within {@code timeout}.
     */
    public synchronized void awaitReachable(Duration timeout) {
        try {
            admin().describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot reach a Kafka broker at " + bootstrapServers + " within "
                    + timeout.toSeconds() + " s: " + (e.getCause() != null ? e.getCause() : e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reaching " + bootstrapServers, e);
        }
    }

    /** Creates a topic with replication factor 1 and waits for the broker to confirm it. */
    public synchronized void create(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        try {
            admin().createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot create topic '" + name + "' on " + bootstrapServers + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Creating topic '" + name + "' on " + bootstrapServers
                    + " timed out after " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic '" + name + "'", e);
        }
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_SECONDS * 1000)));
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
