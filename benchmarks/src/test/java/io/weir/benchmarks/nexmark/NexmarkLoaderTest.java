package io.weir.benchmarks.nexmark;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loader on the test kit's in-JVM broker: what it writes reads back as the generator's events. */
class NexmarkLoaderTest {

    private static final int PARTITIONS = 3;

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.create();
        broker.start();
    }

    @AfterAll
    static void closeBroker() {
        broker.close();
    }

    @Test
    void everyEventReadsBackFromItsEntitysTopicKeyedByIdAtItsEventTimeInStreamOrder() {
        NexmarkConfig config = NexmarkConfig.defaults().withEvents(3000).withOutOfOrderGroupSize(10);
        NexmarkTopics topics = NexmarkTopics.prefixed("load-");
        for (String topic : topics.all()) {
            broker.createTopic(topic, PARTITIONS);
        }

        NexmarkLoader.Loaded loaded =
                NexmarkLoader.load(broker.bootstrapServers(), topics, new NexmarkGenerator(config));

        assertEquals(new NexmarkLoader.Loaded(60, 180, 2760), loaded);
        List<Event> expected = new ArrayList<>();
        new NexmarkGenerator(config).forEachRemaining(expected::add);
        Map<Event, Integer> streamOrder = new HashMap<>();
        for (int i = 0; i < expected.size(); i++) {
            streamOrder.put(expected.get(i), i);
        }
        List<Event> read = new ArrayList<>();
        Map<TopicPartition, Integer> lastInPartition = new HashMap<>();
        Map<Long, String> sideInput = new HashMap<>();
        for (ConsumerRecord<Long, byte[]> record : readAll(topics, loaded.total() + SideInput.ROWS)) {
            if (record.topic().equals(topics.sideInput())) {
                assertEquals(expected.get(0).dateTime(), record.timestamp(), "the side input's time");
                sideInput.put(record.key(), new String(record.value(), StandardCharsets.UTF_8));
                continue;
            }
            Event event = decode(topics, record);
            read.add(event);
            assertEquals(event.dateTime(), record.timestamp(), "timestamp of " + event);
            assertEquals(key(event), record.key(), "key of " + event);
            Integer position = streamOrder.get(event);
            assertTrue(position != null, "not in the stream: " + event);
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            Integer previous = lastInPartition.put(partition, position);
            assertTrue(previous == null || previous < position, partition + " is out of the stream's order");
        }
        assertEquals(expected.size(), read.size());
        assertEquals(streamOrder.keySet(), new HashSet<>(read));
        assertEquals(PARTITIONS * 3, lastInPartition.size(), "every partition got records");
        assertEquals(SideInput.ROWS, sideInput.size());
        sideInput.forEach((row, value) -> assertEquals(SideInput.value(row), value));
    }

    @Test
    void aMissingTopicFailsTheLoadNamingIt() {
        broker.createTopic("missing-persons", PARTITIONS);
        broker.createTopic("missing-auctions", PARTITIONS);
        NexmarkTopics topics = NexmarkTopics.prefixed("missing-");

        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> NexmarkLoader.load(
                        broker.bootstrapServers(),
                        topics,
                        new NexmarkGenerator(NexmarkConfig.defaults().withEvents(10))));
        assertEquals(
                "The Nexmark topic 'missing-bids' does not exist on " + broker.bootstrapServers()
                        + ": create the topics [missing-persons, missing-auctions, missing-bids, missing-side-input] first",
                e.getMessage());
    }

    private static List<ConsumerRecord<Long, byte[]>> readAll(NexmarkTopics topics, long count) {
        List<ConsumerRecord<Long, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<Long, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new LongDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(topics.all().stream()
                    .flatMap(t -> IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(t, p)))
                    .toList());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return records.size() >= count;
            });
        }
        return records;
    }

    private static Event decode(NexmarkTopics topics, ConsumerRecord<Long, byte[]> record) {
        String topic = record.topic();
        if (topic.equals(topics.persons())) {
            return NexmarkSerdes.person().deserializer().deserialize(topic, record.value());
        }
        if (topic.equals(topics.auctions())) {
            return NexmarkSerdes.auction().deserializer().deserialize(topic, record.value());
        }
        return NexmarkSerdes.bid().deserializer().deserialize(topic, record.value());
    }

    private static long key(Event event) {
        if (event instanceof Person p) {
            return p.id();
        }
        if (event instanceof Auction a) {
            return a.id();
        }
        return ((Bid) event).auction();
    }
}
