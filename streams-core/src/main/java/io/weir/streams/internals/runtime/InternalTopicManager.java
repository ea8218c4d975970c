package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.internals.Causes;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Before an instance's threads start: reads the source topics' partition counts, derives the task
 * count of every sub-topology, and creates the changelog and repartition topics with those counts
 * (or checks them, when they exist). Retries with backoff while Kafka is unreachable, logging why (but not
 * when Kafka refuses the credentials or a permission: that fails at once);
 * fails at once, naming the topic, when a source topic is missing or counts disagree. Owns its Admin.
 */
public final class InternalTopicManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InternalTopicManager.class);
    private static final long MAX_BACKOFF_MS = 30_000;

    /**
     * Repartition records carry event times, which may be far in the past (a replay) or ahead: time-based
     * retention would delete them unread (RepartitionPurger deletes what was committed past), and a
     * broker's timestamp limits (Kafka 4 refuses records an hour ahead by default) would refuse them.
     */
    static final Map<String, String> REPARTITION_CONFIGS = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG,
            TopicConfig.CLEANUP_POLICY_DELETE,
            TopicConfig.RETENTION_MS_CONFIG,
            "-1",
            TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG,
            Long.toString(Long.MAX_VALUE),
            TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG,
            Long.toString(Long.MAX_VALUE));

    private final StreamsConfig config;
    private final Admin admin;

    public InternalTopicManager(StreamsConfig config) {
        this.config = config;
        this.admin = Admin.create(config.clientConfig(StreamsConfig.ADMIN_PREFIX));
    }

    /** Returns the task count of every sub-topology, by id, once every internal topic exists. */
    public Prepared prepare(TopologySpec topology, BooleanSupplier stopping) {
        long backoff = 500;
        while (true) {
            try {
                TopologySpec resolved = topology.hasPatterns()
                        ? topology.resolvePatterns(listTopics(), config.applicationId())
                        : topology;
                if (resolved != topology) {
                    log.info(
                            "Source patterns of application {} resolved: it reads {}",
                            config.applicationId(),
                            resolved.sourceTopics());
                }
                Map<Integer, Integer> taskCounts = resolved.taskCounts(partitionCounts(resolved.sourceTopics())::get);
                createInternalTopics(resolved, taskCounts);
                return new Prepared(resolved, taskCounts);
            } catch (RetryLater e) {
                Throwable cause = e.getCause();
                if (cause != null && AccessErrors.isAccessError(cause)) {
                    // Bad credentials or a missing ACL: waiting will not cure it. WeirStreams explains it.
                    throw new IllegalStateException(cause.getMessage(), cause);
                }
                if (stopping.getAsBoolean()) {
                    throw new IllegalStateException("Stopped while waiting for Kafka", e.getCause());
                }
                log.warn(
                        "Cannot prepare the topics of application {} at {} yet ({}); retrying in {} ms",
                        config.applicationId(),
                        config.bootstrapServers(),
                        String.valueOf(e.getCause()),
                        backoff);
                sleep(backoff);
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
        }
    }

    /** The topology as it runs (patterns resolved) and the task count of each sub-topology. */
    public record Prepared(TopologySpec topology, Map<Integer, Integer> taskCounts) {}

    private Set<String> listTopics() {
        try {
            return admin.listTopics().names().get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new RetryLater(Causes.of(e));
        } catch (TimeoutException e) {
            throw new RetryLater(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while listing topics", e);
        }
    }

    private Map<String, Integer> partitionCounts(Set<String> topics) {
        Map<String, Integer> counts = new HashMap<>();
        for (String topic : topics) {
            try {
                TopicDescription d = admin.describeTopics(Set.of(topic))
                        .allTopicNames()
                        .get(15, TimeUnit.SECONDS)
                        .get(topic);
                if (d != null) {
                    counts.put(topic, d.partitions().size());
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    continue;
                }
                throw new RetryLater(naming(Causes.of(e), topic));
            } catch (TimeoutException e) {
                throw new RetryLater(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while reading topic metadata", e);
            }
        }
        return counts;
    }

    private void createInternalTopics(TopologySpec topology, Map<Integer, Integer> taskCounts) {
        Map<String, NewTopic> wanted = new LinkedHashMap<>();
        Optional<Short> replication =
                config.replicationFactor() < 0 ? Optional.empty() : Optional.of(config.replicationFactor());
        String app = config.applicationId();
        for (SubtopologySpec sub : topology.subtopologies()) {
            int partitions = Objects.requireNonNull(taskCounts.get(sub.id()), "task count");
            for (String storeName : sub.stores()) {
                StoreSpec store = topology.store(storeName);
                if (store.ownChangelog()) {
                    Map<String, String> configs = store.retentionMs() < 0
                            ? Map.of("cleanup.policy", "compact")
                            : Map.of(
                                    "cleanup.policy",
                                    "compact,delete",
                                    "retention.ms",
                                    Long.toString(store.retentionMs()));
                    wanted.put(
                            store.changelogTopic(app),
                            new NewTopic(store.changelogTopic(app), Optional.of(partitions), replication)
                                    .configs(configs));
                }
            }
            for (SourceSpec source : sub.sources()) {
                if (source.repartition()) {
                    wanted.put(
                            source.topic(app),
                            new NewTopic(source.topic(app), Optional.of(partitions), replication)
                                    .configs(REPARTITION_CONFIGS));
                }
            }
        }
        Map<String, Integer> existing = partitionCounts(wanted.keySet());
        for (NewTopic topic : wanted.values()) {
            Integer have = existing.get(topic.name());
            if (have == null) {
                create(topic);
            } else if (have != topic.numPartitions()) {
                throw new IllegalStateException("Internal topic '" + topic.name() + "' has " + have
                        + " partitions but the "
                        + "topology needs " + topic.numPartitions() + "; delete it (its state is rebuilt) or restore "
                        + "the source topics' partition count");
            }
        }
    }

    private void create(NewTopic topic) {
        try {
            admin.createTopics(Set.of(topic)).all().get(30, TimeUnit.SECONDS);
            log.info("Created internal topic {} ({} partitions)", topic.name(), topic.numPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new RetryLater(naming(Causes.of(e), topic.name()));
            }
        } catch (TimeoutException e) {
            throw new RetryLater(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating " + topic.name(), e);
        }
    }

    /**
     * {@code cause}, or when it is a topic authorization failure that names no topic (the admin API's are
     * such), one that names {@code topic}, so the error can say which permission is missing where.
     */
    private static Throwable naming(Throwable cause, String topic) {
        if (cause instanceof TopicAuthorizationException t
                && t.unauthorizedTopics().isEmpty()) {
            return new TopicAuthorizationException(t.getMessage(), Set.of(topic));
        }
        return cause;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to retry", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }

    /** A failure that waiting may cure (Kafka unreachable, a timeout). */
    private static final class RetryLater extends RuntimeException {
        RetryLater(Throwable cause) {
            super(cause);
        }
    }
}
