package io.weir.streams.internals.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The leader aborts a departed member's open transaction at once, and fences the member. */
@ExtendWith(KafkaBrokerExtension.class)
class TransactionFencerTest {

    @Test
    void aDepartedMembersOpenTransactionIsAbortedAtOnceAndItsProducerFenced(KafkaBroker broker) {
        broker.createTopic("fence-out", 1);
        TopicPartition out = new TopicPartition("fence-out", 0);
        Map<String, Object> producerConfig = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        try (KafkaProducer<String, String> departed = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                                "fence-app-b-0",
                                // Far beyond the test: only the fencing can end this transaction in time.
                                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                                600_000),
                        new StringSerializer(),
                        new StringSerializer());
                KafkaConsumer<String, String> reader = new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed"),
                        new StringDeserializer(),
                        new StringDeserializer())) {
            departed.initTransactions();
            departed.beginTransaction();
            departed.send(new ProducerRecord<>("fence-out", 0, "k", "v"));
            departed.flush();
            assertEquals(0L, reader.endOffsets(List.of(out)).get(out), "the open transaction holds readers back");

            new TransactionFencer(producerConfig, Duration.ofSeconds(30)).fence(Set.of("fence-app-b-0"));

            assertEquals(
                    2L,
                    reader.endOffsets(List.of(out)).get(out),
                    "the record and its abort marker are behind the readers' end at once");
            assertThrows(KafkaException.class, departed::commitTransaction, "the departed member is fenced");
        }
    }
}
