package io.weir.streams.internals.testkit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
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
     * Creates a topic with replication factor 1 and waits until every partition has a leader: the
     * controller confirms a topic before the broker leads its partitions, and a producer that writes
     * in between gets NOT_LEADER_OR_FOLLOWER retries (seen to end in out-of-order sequence errors).
     */
    public synchronized void create(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        try {
            admin().createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            awaitLeaders(name, partitions);
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

    private void awaitLeaders(String name, int partitions)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        long backoffMs = 10;
        while (true) {
            TopicDescription description = describe(name);
            if (description != null
                    && description.partitions().size() == partitions
                    && description.partitions().stream()
                            .allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                    && leadersServe(name, partitions)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions without a leader: "
                        + (description == null ? "the topic is not known yet" : description.partitions()));
            }
            // The admin API has no call that waits for leadership: poll, backing off.
            Thread.sleep(backoffMs);
            backoffMs = Math.min(backoffMs * 2, 200);
        }
    }

    /**
     * Whether every partition's leader answers for it. The metadata names a leader before the broker's
     * replica manager has become it; a producer's first batch sent in between is refused
     * (NOT_LEADER_OR_FOLLOWER), and an idempotent producer's later batches, appended meanwhile, then leave
     * its retry out of sequence for good. Listing offsets is served by the leader's replica manager.
     */
    private boolean leadersServe(String name, int partitions) throws InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            asked.put(new TopicPartition(name, p), OffsetSpec.latest());
        }
        try {
            admin().listOffsets(asked).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            return false;
        }
    }

    /** The topic's description, or null while the broker does not know the topic yet. */
    private @Nullable TopicDescription describe(String name)
            throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return admin().describeTopics(List.of(name))
                    .allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(name);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
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
