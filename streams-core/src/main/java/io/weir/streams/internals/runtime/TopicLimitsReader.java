package io.weir.streams.internals.runtime;

import io.weir.streams.internals.processor.TopicLimits;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads, once per topic, what a topic accepts ({@link TopicLimits}) so that a record it would refuse is
 * refused before it is sent. Kafka's producer reports a record over {@code max.request.size} or {@code
 * buffer.memory} only after it took it, and the broker refuses a batch over the topic's {@code
 * max.message.bytes} or with a timestamp outside {@code message.timestamp.before.max.ms} / {@code
 * message.timestamp.after.max.ms} of its clock; a transactional producer then makes the whole open
 * transaction abortable. Checked here first, the record can be skipped or dead-lettered and the
 * transaction's other records still commit.
 *
 * <p>The size limit of a topic is the smallest of its {@code max.message.bytes}, the producer's {@code
 * max.request.size} and its {@code buffer.memory}; a topic with {@code message.timestamp.type=LogAppendTime}
 * accepts any timestamp (its broker replaces it). When the topic's config cannot be read, only the
 * producer's limits apply (logged once). Used by one thread.
 */
final class TopicLimitsReader {

    private static final Logger log = LoggerFactory.getLogger(TopicLimitsReader.class);
    private final Admin admin;
    private final long producerLimit;
    private final Map<String, TopicLimits> limits = new HashMap<>();

    TopicLimitsReader(Admin admin, Map<String, Object> producerConfig) {
        this.admin = admin;
        Map<String, Object> withSerializers = new HashMap<>(producerConfig);
        withSerializers.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        withSerializers.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        Map<String, Object> resolved = ProducerConfig.configDef().parse(withSerializers);
        // The producer's config definition has defaults for both, so parsing always yields them.
        int maxRequest = (Integer) Objects.requireNonNull(resolved.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        long bufferMemory = (Long) Objects.requireNonNull(resolved.get(ProducerConfig.BUFFER_MEMORY_CONFIG));
        this.producerLimit = Math.min(maxRequest, bufferMemory);
    }

    TopicLimits limits(String topic) {
        return limits.computeIfAbsent(topic, this::read);
    }

    private TopicLimits read(String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(Set.of(resource))
                    .all()
                    .get(5, TimeUnit.SECONDS)
                    .get(resource);
            if (config != null) {
                return of(topic, config);
            }
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            // The cause as text: slf4j would take a Throwable last argument as the exception, not the third {}.
            log.warn(
                    "Cannot read the config of topic {} ({}{}): records sent to it are checked against the "
                            + "producer's limits only",
                    topic,
                    cause,
                    cause instanceof AuthorizationException
                            ? "; its principal needs DESCRIBE_CONFIGS on it, see docs/guides/security.md"
                            : "");
            return TopicLimits.ofSize(producerLimit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the config of topic " + topic, e);
        }
        log.warn(
                "Topic {} reports no config: records sent to it are checked against the producer's limits only", topic);
        return TopicLimits.ofSize(producerLimit);
    }

    private TopicLimits of(String topic, Config config) {
        long size = producerLimit;
        String maxBytes = value(config, TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        if (maxBytes != null) {
            size = Math.min(size, Long.parseLong(maxBytes));
        } else {
            log.warn(
                    "Topic {} reports no {}: records sent to it are checked against the producer's limits only",
                    topic,
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        }
        if ("LogAppendTime".equals(value(config, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG))) {
            return TopicLimits.ofSize(size);
        }
        return new TopicLimits(
                size,
                millis(value(config, TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG)),
                millis(value(config, TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG)));
    }

    private static @Nullable String value(Config config, String name) {
        ConfigEntry entry = config.get(name);
        return entry == null ? null : entry.value();
    }

    /** A limit in milliseconds; none (Long.MAX_VALUE) when the broker does not report it (before Kafka 3.6). */
    private static long millis(@Nullable String value) {
        return value == null ? Long.MAX_VALUE : Long.parseLong(value);
    }
}
