package io.weir.streams.test.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** String clients for tests of the broker kit. */
final class Clients {

    private Clients() {}

    static KafkaProducer<String, String> producer(KafkaBroker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    static KafkaConsumer<String, String> consumer(KafkaBroker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * Reads every record of {@code topic} visible at the given isolation level, from the beginning to
     * the end offsets seen at the start of the read (the last stable offset under read_committed).
     */
    static List<ConsumerRecord<String, String>> readAll(KafkaBroker broker, String topic, String isolation) {
        try (KafkaConsumer<String, String> consumer =
                consumer(broker, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Did not reach the end offsets " + end + " of " + topic + " in 30 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    static Set<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toSet());
    }
}
