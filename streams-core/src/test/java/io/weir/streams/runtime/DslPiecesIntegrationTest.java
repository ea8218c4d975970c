package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static io.weir.streams.runtime.TopicReader.keys;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DSL pieces whose runtime side a TestDriver cannot show, on a real broker under exactly-once: a
 * topic read twice by one consumer, a repartition topic created with its chosen partition count, records
 * routed to topics chosen per record, and a partitioner's choice of partition.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DslPiecesIntegrationTest {

    private static final int RECORDS = 30;

    @Test
    void readTwiceRepartitionedRoutedAndPartitioned(KafkaBroker broker, @TempDir Path dir) throws Exception {
        String p = "dsl-pieces-";
        broker.createTopic(p + "in", 2);
        broker.createTopic(p + "even", 1);
        broker.createTopic(p + "odd", 1);
        broker.createTopic(p + "copies", 3);
        Set<String> even = new TreeSet<>();
        Set<String> odd = new TreeSet<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(
                        new ProducerRecord<>(p + "in", null, BaseTime.recentPast() + i, "k" + i, Integer.toString(i)));
                (i % 2 == 0 ? even : odd).add("k" + i);
            }
        }

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .repartition(Repartitioned.<String, String>as("spread").withNumberOfPartitions(3))
                .to(
                        (k, v) -> Integer.parseInt(v) % 2 == 0 ? p + "even" : p + "odd",
                        Produced.with(Serdes.String(), Serdes.String()));
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(Integer::parseInt, Named.as("parse"))
                .to(
                        p + "copies",
                        Produced.with(Serdes.String(), Serdes.Integer()).withPartitioner((t, k, v, n) -> v % n));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 200);

        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertEquals(List.copyOf(even), keys(read(broker, p + "even", "read_committed")));
                assertEquals(List.copyOf(odd), keys(read(broker, p + "odd", "read_committed")));
                assertEquals(
                        RECORDS, read(broker, p + "copies", "read_committed").size());
            });
            for (ConsumerRecord<String, String> copy : read(broker, p + "copies", "read_committed")) {
                int value = Integer.parseInt(copy.key().substring(1));
                assertEquals(value % 3, copy.partition(), "the partitioner's choice for " + copy.key());
            }
            assertTrue(app.error().isEmpty());
        }
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            String repartition = p + "app-spread-repartition";
            assertEquals(
                    3,
                    admin.describeTopics(Set.of(repartition))
                            .allTopicNames()
                            .get()
                            .get(repartition)
                            .partitions()
                            .size());
        }
    }

    @Test
    void aPatternSourceReadsEveryTopicMatchingAtStart(KafkaBroker broker, @TempDir Path dir) {
        String p = "dsl-pattern-";
        broker.createTopic(p + "eu", 2);
        broker.createTopic(p + "us", 2);
        broker.createTopic(p + "out", 1);
        Set<String> expected = new TreeSet<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                String region = i % 2 == 0 ? "eu" : "us";
                producer.send(new ProducerRecord<>(p + region, null, BaseTime.recentPast() + i, region + i, "x"));
                expected.add(region + i);
            }
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(Pattern.compile(p + "(eu|us)"), Consumed.with(Serdes.String(), Serdes.String()))
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 200);
        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertEquals(List.copyOf(expected), keys(read(broker, p + "out", "read_committed"))));
            assertTrue(app.error().isEmpty());
        }
    }
}
