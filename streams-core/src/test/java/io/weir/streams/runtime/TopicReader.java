package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a whole topic as text, with a chosen isolation level, for tests of what a run committed. */
final class TopicReader {

    private TopicReader() {}

    /** Every record of {@code topic} a consumer with this isolation level sees, to the end. */
    static List<ConsumerRecord<String, String>> read(KafkaBroker broker, String topic, String isolation) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        isolation),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic).forEach(pi -> partitions.add(new TopicPartition(topic, pi.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** The last value of header {@code name} as UTF-8 text, or null. */
    static String header(ConsumerRecord<?, ?> record, String name) {
        var h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The records' keys, sorted. */
    static List<String> keys(List<ConsumerRecord<String, String>> records) {
        List<String> keys = new ArrayList<>();
        records.forEach(r -> keys.add(r.key()));
        keys.sort(null);
        return keys;
    }
}
