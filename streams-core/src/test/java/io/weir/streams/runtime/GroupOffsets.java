package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/** How far an application has got: its group's committed offsets against the topics' end offsets. */
final class GroupOffsets implements AutoCloseable {

    private final KafkaBroker broker;
    private final Admin admin;

    GroupOffsets(KafkaBroker broker) {
        this.broker = broker;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    /** The sum of the group's committed offsets (over all its partitions). */
    long committed(String group) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        return offsets.values().stream()
                .filter(Objects::nonNull)
                .mapToLong(OffsetAndMetadata::offset)
                .sum();
    }

    /** The sum of a topic's end offsets (over all its partitions). */
    long end(String topic) {
        return sum(topic, KafkaConsumer::endOffsets);
    }

    /** The sum of a topic's log-start offsets: how many records were deleted from its head. */
    long start(String topic) {
        return sum(topic, KafkaConsumer::beginningOffsets);
    }

    private long sum(
            String topic,
            BiFunction<KafkaConsumer<byte[], byte[]>, List<TopicPartition>, Map<TopicPartition, Long>> offsets) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            return offsets.apply(c, partitions).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
