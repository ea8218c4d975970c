package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.internals.Causes;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
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
                // The sources and the internal topics in one round trip: a restart waits for it.
                Set<String> topics = new HashSet<>(resolved.sourceTopics());
                topics.addAll(internalTopicNames(resolved));
                Map<String, TopicDescription> existing = describe(topics);
                Map<Integer, Integer> taskCounts = resolved.taskCounts(topic -> existing.containsKey(topic)
                        ? existing.get(topic).partitions().size()
                        : null);
                createInternalTopics(resolved, taskCounts, existing);
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

    /** The description of each of {@code topics} that exists, in one round trip. */
    private Map<String, TopicDescription> describe(Set<String> topics) {
        Map<String, TopicDescription> found = new HashMap<>();
        if (topics.isEmpty()) {
            return found;
        }
        DescribeTopicsResult result = admin.describeTopics(topics);
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e :
                result.topicNameValues().entrySet()) {
            try {
                found.put(e.getKey(), e.getValue().get(15, TimeUnit.SECONDS));
            } catch (ExecutionException x) {
                if (!(x.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new RetryLater(naming(Causes.of(x), e.getKey()));
                }
            } catch (TimeoutException x) {
                throw new RetryLater(x);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while reading topic metadata", x);
            }
        }
        return found;
    }

    /** The changelog and repartition topics of {@code topology}. */
    private Set<String> internalTopicNames(TopologySpec topology) {
        String app = config.applicationId();
        Set<String> names = new HashSet<>();
        topology.stores().values().stream()
                .filter(StoreSpec::ownChangelog)
                .forEach(store -> names.add(store.changelogTopic(app)));
        topology.sources().stream().filter(SourceSpec::repartition).forEach(source -> names.add(source.topic(app)));
        return names;
    }

    /**
     * Creates the internal topics missing from {@code described} (the topics that exist, among them the
     * internal ones) after validating those that exist.
     */
    private void createInternalTopics(
            TopologySpec topology, Map<Integer, Integer> taskCounts, Map<String, TopicDescription> described) {
        Map<String, InternalTopic> wanted = new LinkedHashMap<>();
        String app = config.applicationId();
        for (SubtopologySpec sub : topology.subtopologies()) {
            int partitions = Objects.requireNonNull(taskCounts.get(sub.id()), "task count");
            for (String storeName : sub.stores()) {
                StoreSpec store = topology.store(storeName);
                if (store.ownChangelog()) {
                    String name = store.changelogTopic(app);
                    wanted.put(name, InternalTopic.changelog(name, partitions, store.retentionMs()));
                }
            }
            for (SourceSpec source : sub.sources()) {
                if (source.repartition()) {
                    wanted.put(source.topic(app), InternalTopic.repartition(source.topic(app), partitions));
                }
            }
        }
        Map<String, TopicDescription> existing = new HashMap<>();
        wanted.keySet().stream().filter(described::containsKey).forEach(t -> existing.put(t, described.get(t)));
        validate(wanted, existing);
        Optional<Short> replication =
                config.replicationFactor() < 0 ? Optional.empty() : Optional.of(config.replicationFactor());
        List<NewTopic> missing = wanted.values().stream()
                .filter(t -> !existing.containsKey(t.name()))
                .map(t -> t.newTopic(replication))
                .toList();
        create(missing);
        warnOfSingleReplicas(wanted.keySet(), missing.isEmpty() ? existing : describe(wanted.keySet()));
    }

    /**
     * Refuses existing internal topics that would lose data (see {@link InternalTopic}), all at once with
     * their fixes; warns of what only costs a thread.
     */
    private void validate(Map<String, InternalTopic> wanted, Map<String, TopicDescription> existing) {
        if (existing.isEmpty()) {
            return;
        }
        Map<String, Config> configs = configs(existing.keySet());
        List<String> problems = new ArrayList<>();
        for (TopicDescription d : existing.values()) {
            InternalTopic topic = wanted.get(d.name());
            Config c = configs.get(d.name());
            if (topic == null || c == null) {
                continue;
            }
            problems.addAll(topic.problems(d.partitions().size(), c));
            topic.warnings(c).forEach(w -> log.warn("Internal topic {}", w));
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Internal topics of application " + config.applicationId()
                    + " exist with settings that would lose data; Weir refuses to start on them:\n  - "
                    + String.join("\n  - ", problems)
                    + "\n(docs/guides/operating.md, \"Internal topics\", lists what each must be)");
        }
    }

    private Map<String, Config> configs(Set<String> topics) {
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        try {
            Map<ConfigResource, Config> read =
                    admin.describeConfigs(resources).all().get(15, TimeUnit.SECONDS);
            Map<String, Config> byTopic = new HashMap<>();
            read.forEach((r, c) -> byTopic.put(r.name(), c));
            return byTopic;
        } catch (ExecutionException e) {
            throw new RetryLater(Causes.of(e));
        } catch (TimeoutException e) {
            throw new RetryLater(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading topic configs", e);
        }
    }

    /**
     * Warns of internal topics with one replica on a cluster of several brokers: the replication factor
     * left to the broker's default (1 on stock Kafka) loses their state with one disk.
     */
    private void warnOfSingleReplicas(Set<String> topics, Map<String, TopicDescription> described) {
        int brokers;
        try {
            brokers = admin.describeCluster().nodes().get(15, TimeUnit.SECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Cannot count the brokers to check the internal topics' replication ({})", String.valueOf(e));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while counting brokers", e);
        }
        if (brokers < 2) {
            return;
        }
        for (String topic : topics) {
            TopicDescription d = described.get(topic);
            if (d != null
                    && !d.partitions().isEmpty()
                    && d.partitions().get(0).replicas().size() == 1) {
                log.warn(
                        "Internal topic {} has one replica on a cluster of {} brokers: one broker's disk holds "
                                + "all of it. Set {} (or the brokers' default.replication.factor) to 3 and raise its "
                                + "replication with kafka-reassign-partitions.sh",
                        topic,
                        brokers,
                        StreamsConfig.REPLICATION_FACTOR);
            }
        }
    }

    private void create(List<NewTopic> topics) {
        if (topics.isEmpty()) {
            return;
        }
        Map<String, KafkaFuture<Void>> created = admin.createTopics(topics).values();
        for (NewTopic topic : topics) {
            try {
                Objects.requireNonNull(created.get(topic.name()), "a result per topic")
                        .get(30, TimeUnit.SECONDS);
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
