package io.weir.streams.internals.runtime;

import io.weir.streams.internals.processor.RecordSize;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
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
 * Refuses, before it is sent, a record larger than its topic accepts. Kafka's producer reports such a
 * record only after it took it (for a record over {@code max.request.size} or {@code buffer.memory}),
 * or once the broker refused its batch (over the topic's {@code max.message.bytes}); a transactional
 * producer then makes the whole open transaction abortable. Checked here first, the record can be
 * skipped or dead-lettered and the transaction's other records still commit.
 *
 * <p>The limit of a topic is the smallest of its {@code max.message.bytes} (read once, with the Admin
 * client, on the first record sent to it), the producer's {@code max.request.size} and its
 * {@code buffer.memory}. A record is measured as an uncompressed batch holding it alone: an upper bound
 * of what the producer and the broker measure, as exact as the producer's own check, conservative when
 * the producer compresses. When the topic's config cannot be read, only the producer's limits apply
 * (logged once). Used by one thread.
 */
final class RecordSizeLimits {

    private static final Logger log = LoggerFactory.getLogger(RecordSizeLimits.class);
    private final Admin admin;
    private final long producerLimit;
    private final Map<String, Long> limits = new HashMap<>();

    RecordSizeLimits(Admin admin, Map<String, Object> producerConfig) {
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

    /** @throws RecordTooLargeException when the record is larger than {@code topic} accepts */
    void check(String topic, byte @Nullable [] key, byte @Nullable [] value, Headers headers) {
        long size = RecordSize.batchUpperBound(key, value, headers);
        long limit = limits.computeIfAbsent(topic, this::limitOf);
        if (size > limit) {
            throw new RecordTooLargeException("The record for topic '" + topic + "' is up to " + size
                    + " bytes in a batch, more than the " + limit + " bytes the topic accepts (the smallest of its "
                    + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " and the producer's "
                    + ProducerConfig.MAX_REQUEST_SIZE_CONFIG
                    + " and " + ProducerConfig.BUFFER_MEMORY_CONFIG + ")");
        }
    }

    private long limitOf(String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(Set.of(resource))
                    .all()
                    .get(5, TimeUnit.SECONDS)
                    .get(resource);
            ConfigEntry entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (entry != null && entry.value() != null) {
                return Math.min(producerLimit, Long.parseLong(entry.value()));
            }
            log.warn(
                    "Topic {} reports no {}: records sent to it are checked against the producer's limits only",
                    topic,
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            // The cause as text: slf4j would take a Throwable last argument as the exception, not the third {}.
            log.warn(
                    "Cannot read the {} of topic {} ({}{}): records sent to it are checked against the producer's "
                            + "limits only",
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    topic,
                    cause,
                    cause instanceof AuthorizationException
                            ? "; its principal needs DESCRIBE_CONFIGS on it, see docs/guides/security.md"
                            : "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the config of topic " + topic, e);
        }
        return producerLimit;
    }
}
