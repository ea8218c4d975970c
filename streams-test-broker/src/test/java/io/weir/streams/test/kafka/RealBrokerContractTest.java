package io.weir.streams.test.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The broker of the kit is a real Kafka: transactions, group offsets and compaction behave as in production. */
@ExtendWith(KafkaBrokerExtension.class)
class RealBrokerContractTest {

    @Test
    void readCommittedSeesOnlyCommittedTransactionsWhileReadUncommittedSeesBoth(KafkaBroker broker) {
        broker.createTopic("txn-visibility", 2);
        try (KafkaProducer<String, String> producer =
                Clients.producer(broker, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "txn-visibility-producer"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn-visibility", "k1", "committed-1"));
            producer.send(new ProducerRecord<>("txn-visibility", "k2", "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn-visibility", "k1", "aborted-1"));
            producer.send(new ProducerRecord<>("txn-visibility", "k2", "aborted-2"));
            producer.flush();
            producer.abortTransaction();
        }
        assertEquals(
                Set.of("committed-1", "committed-2"),
                Clients.values(Clients.readAll(broker, "txn-visibility", "read_committed")));
        assertEquals(
                Set.of("committed-1", "committed-2", "aborted-1", "aborted-2"),
                Clients.values(Clients.readAll(broker, "txn-visibility", "read_uncommitted")));
    }

    @Test
    void offsetsSentWithTheTransactionAreTheGroupsCommittedOffsetsAfterCommit(KafkaBroker broker) throws Exception {
        broker.createTopic("eos-in", 1);
        broker.createTopic("eos-out", 1);
        try (KafkaProducer<String, String> plain = Clients.producer(broker, Map.of())) {
            for (int i = 0; i < 10; i++) {
                plain.send(new ProducerRecord<>("eos-in", "k" + i, "v" + i));
            }
        }
        TopicPartition in = new TopicPartition("eos-in", 0);
        try (KafkaConsumer<String, String> consumer = Clients.consumer(
                        broker,
                        Map.of(
                                ConsumerConfig.GROUP_ID_CONFIG, "eos-group",
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
                KafkaProducer<String, String> producer =
                        Clients.producer(broker, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "eos-producer"))) {
            producer.initTransactions();
            consumer.subscribe(List.of("eos-in"));
            Map<TopicPartition, OffsetAndMetadata> consumed = new HashMap<>();
            producer.beginTransaction();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ConsumerRecords<String, String> batch = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> r : batch) {
                    producer.send(
                            new ProducerRecord<>("eos-out", r.key(), r.value().toUpperCase(Locale.ROOT)));
                    consumed.put(in, new OffsetAndMetadata(r.offset() + 1, "max-event-time=" + r.timestamp()));
                }
                return consumed.containsKey(in) && consumed.get(in).offset() == 10;
            });
            producer.sendOffsetsToTransaction(consumed, consumer.groupMetadata());
            try (Admin admin = admin(broker)) {
                assertEquals(Map.of(), committedOffsets(admin), "nothing is committed before the transaction is");
                producer.commitTransaction();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    OffsetAndMetadata committed = committedOffsets(admin).get(in);
                    assertEquals(10, committed == null ? -1 : committed.offset());
                    assertEquals(consumed.get(in).metadata(), committed.metadata());
                });
            }
        }
        assertEquals(10, Clients.readAll(broker, "eos-out", "read_committed").size());
    }

    @Test
    void aCompactedTopicKeepsTheLatestValuePerKey(KafkaBroker broker) {
        broker.createTopic(
                "compacted",
                1,
                Map.of(
                        "cleanup.policy", "compact",
                        "segment.ms", "100",
                        "min.cleanable.dirty.ratio", "0.01",
                        "delete.retention.ms", "100"));
        try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
            for (int round = 0; round < 5; round++) {
                for (int key = 0; key < 3; key++) {
                    producer.send(new ProducerRecord<>("compacted", "key-" + key, "round-" + round));
                }
            }
            producer.flush();
            // The active segment is never compacted: keep appending a filler key so segments roll.
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> {
                        producer.send(new ProducerRecord<>("compacted", "filler", "tick"))
                                .get();
                        Map<String, List<String>> byKey =
                                Clients.readAll(broker, "compacted", "read_uncommitted").stream()
                                        .filter(r -> r.key().startsWith("key-"))
                                        .collect(Collectors.groupingBy(
                                                ConsumerRecord::key,
                                                Collectors.mapping(ConsumerRecord::value, Collectors.toList())));
                        assertEquals(
                                Map.of(
                                        "key-0",
                                        List.of("round-4"),
                                        "key-1",
                                        List.of("round-4"),
                                        "key-2",
                                        List.of("round-4")),
                                byKey);
                    });
        }
    }

    private static Admin admin(KafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static Map<TopicPartition, OffsetAndMetadata> committedOffsets(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(admin.listConsumerGroupOffsets("eos-group")
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS));
        offsets.values().removeIf(Objects::isNull);
        return offsets;
    }
}
