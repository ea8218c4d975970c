package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * The settings of a stream thread's group consumer, producer and admin client: what Weir requires of
 * them (the group protocol and assignor, {@code read_committed}, manual commits, transactions under
 * exactly-once) and the defaults it chooses where Kafka's do not suit a stream thread. The thread's
 * restore and standby consumers read outside the group: {@link ReaderConsumers}.
 */
final class ThreadClientConfigs {

    /** The consumer's session timeout unless configured: see {@link #groupConsumer}. */
    static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;
    /** Members learn of a rebalance from a heartbeat: a short interval makes rebalances quick. */
    static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;
    /** Kafka's consumer default for {@code max.poll.interval.ms}. */
    private static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;

    private ThreadClientConfigs() {}

    /**
     * The group consumer of thread {@code threadName}: a member of the application's group that {@link
     * WeirPartitionAssignor} assigns tasks through {@code assignor}, static when {@code groupInstanceId}
     * is given.
     */
    static Map<String, Object> groupConsumer(
            StreamsConfig config, String threadName, AssignorContext assignor, @Nullable String groupInstanceId) {
        Map<String, Object> consumerConfig = config.clientConfig(StreamsConfig.CONSUMER_PREFIX);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, config.applicationId());
        consumerConfig.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, WeirPartitionAssignor.class.getName());
        consumerConfig.put(AssignorContext.CONFIG_KEY, assignor);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, threadName + "-consumer");
        if (groupInstanceId != null) {
            consumerConfig.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, groupInstanceId);
        }
        // Fast failure detection: a dead instance's tasks wait this long for a new owner. Kafka's 45 s
        // default favours riding out long pauses; with cooperative rebalances and standbys a spurious
        // rebalance costs little, so Weir detects sooner.
        consumerConfig.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, DEFAULT_SESSION_TIMEOUT_MS);
        consumerConfig.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, DEFAULT_HEARTBEAT_INTERVAL_MS);
        return consumerConfig;
    }

    /** The group consumer's {@code auto.offset.reset}: where a task with no committed offset starts. */
    static String offsetReset(Map<String, Object> consumerConfig) {
        return String.valueOf(consumerConfig.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
    }

    /** The group consumer's {@code max.poll.interval.ms}. */
    static long maxPollIntervalMs(Map<String, Object> consumerConfig) {
        Object set = consumerConfig.get(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        return set == null ? DEFAULT_MAX_POLL_INTERVAL_MS : Long.parseLong(String.valueOf(set));
    }

    /** The producer of thread {@code threadName}; under exactly-once, transactional under {@code transactionalId}. */
    static Map<String, Object> producer(StreamsConfig config, String threadName, String transactionalId) {
        Map<String, Object> producerConfig = config.clientConfig(StreamsConfig.PRODUCER_PREFIX);
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, threadName + "-producer");
        if (config.exactlyOnce()) {
            producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            // A transaction left open by a dead instance that does not come back blocks read_committed
            // readers until it times out: keep that short, as Kafka Streams does.
            producerConfig.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 10_000);
        }
        producerConfig.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        return producerConfig;
    }

    /** A transactional producer's {@code transaction.timeout.ms}. */
    static long transactionTimeoutMs(Map<String, Object> producerConfig) {
        return Long.parseLong(String.valueOf(producerConfig.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)));
    }

    /** The admin client of thread {@code threadName}. */
    static Map<String, Object> admin(StreamsConfig config, String threadName) {
        Map<String, Object> adminConfig = config.clientConfig(StreamsConfig.ADMIN_PREFIX);
        adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, threadName + "-admin");
        return adminConfig;
    }
}
