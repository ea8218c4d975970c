package io.weir.streams.internals.testkit;

import io.weir.streams.test.kafka.TopicLeaders;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.HashMap;
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
    private final Map<String, Object> clientConfig;
    private @Nullable Admin admin;

    public TopicAdmin(String bootstrapServers) {
        this(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** @param clientConfig the admin client's settings: {@code bootstrap.servers}, and security settings if any */
    public TopicAdmin(Map<String, Object> clientConfig) {
        this.clientConfig = Map.copyOf(clientConfig);
        this.bootstrapServers = String.valueOf(clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    /**
     * Fails with a message naming the address unless a broker there answers within {@code timeout}.
     */
    public synchronized void awaitReachable(Duration timeout) {
        try {
            admin().describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Cannot reach a Kafka broker at " + bootstrapServers + " within " + timeout.toSeconds() + " s: "
                            + (e.getCause() != null ? e.getCause() : e),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reaching " + bootstrapServers, e);
        }
    }

    /**
     * Creates a topic with replication factor 1 and waits until every partition's leader serves it
     * (see {@link TopicLeaders}).
     */
    public synchronized void create(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        try {
            admin().createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            TopicLeaders.await(admin(), name, partitions, Duration.ofSeconds(TIMEOUT_SECONDS));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException(
                    "Cannot create topic '" + name + "' on " + bootstrapServers + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Creating topic '" + name + "' on " + bootstrapServers + " timed out after " + TIMEOUT_SECONDS
                            + " s",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic '" + name + "'", e);
        }
    }

    private Admin admin() {
        Admin a = admin;
        if (a == null) {
            Map<String, Object> config = new HashMap<>(clientConfig);
            config.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_SECONDS * 1000));
            a = Admin.create(config);
            admin = a;
        }
        return a;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
