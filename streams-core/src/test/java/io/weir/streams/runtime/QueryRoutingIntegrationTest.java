package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.HostInfo;
import io.weir.streams.InstanceMetadata;
import io.weir.streams.KeyMetadata;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Routing queries between three instances on a real broker: each instance's {@code application.server}
 * is published with the assignment; {@code metadataForKey} names the instance that holds a key, and
 * that instance answers for it; {@code allMetadata} lists every instance with its partitions; both
 * follow a rebalance when an instance leaves.
 */
@ExtendWith(KafkaBrokerExtension.class)
class QueryRoutingIntegrationTest {

    private static final String INPUT = "iq-route-in";
    private static final int PARTITIONS = 6;
    private static final List<String> KEYS =
            IntStream.range(0, 30).mapToObj(i -> "card-" + i).toList();

    private static Topology counts() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return builder.build();
    }

    @Test
    void metadataForKeyNamesTheInstanceThatAnswersForTheKeyAcrossARebalance(
            KafkaBroker broker, @TempDir Path a, @TempDir Path b, @TempDir Path c) {
        broker.createTopic(INPUT, PARTITIONS);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int round = 0; round < 2; round++) {
                KEYS.forEach(k -> producer.send(new ProducerRecord<>(INPUT, k, "x")));
            }
        }
        Map<HostInfo, WeirStreams> instances = new LinkedHashMap<>();
        try {
            instances.put(new HostInfo("localhost", 7001), start(broker, a, "localhost:7001"));
            instances.put(new HostInfo("localhost", 7002), start(broker, b, "localhost:7002"));
            instances.put(new HostInfo("localhost", 7003), start(broker, c, "localhost:7003"));
            WeirStreams any = instances.values().iterator().next();
            await().atMost(Duration.ofSeconds(90))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> everyKeyIsAnsweredWhereItsMetadataPoints(any, instances, 3));
            List<InstanceMetadata> all = any.allMetadata();
            assertEquals(instances.keySet(), hosts(all));
            Set<TopicPartition> partitions = new HashSet<>();
            all.forEach(m -> {
                assertTrue(m.stores().contains("counts"), m.toString());
                m.partitions().forEach(p -> assertTrue(partitions.add(p), "each partition on one instance: " + p));
            });
            assertEquals(PARTITIONS, partitions.size());
            assertThrows(
                    IllegalArgumentException.class,
                    () -> any.metadataForKey("nope", "card-1", Serdes.String().serializer()));

            instances
                    .remove(new HostInfo("localhost", 7003))
                    .close(CloseOptions.within(Duration.ofSeconds(60)).withLeaveGroup(true));
            await().atMost(Duration.ofSeconds(90))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> everyKeyIsAnsweredWhereItsMetadataPoints(any, instances, 2));
        } finally {
            instances.values().forEach(WeirStreams::close);
        }
    }

    /** Each key's metadata names a live instance, whose store holds the key's count (2). */
    private static void everyKeyIsAnsweredWhereItsMetadataPoints(
            WeirStreams asked, Map<HostInfo, WeirStreams> instances, int expectedInstances) {
        assertEquals(expectedInstances, asked.allMetadata().size(), "instances listed");
        for (String key : KEYS) {
            Optional<KeyMetadata> metadata =
                    asked.metadataForKey("counts", key, Serdes.String().serializer());
            assertTrue(metadata.isPresent(), "metadata for " + key);
            WeirStreams owner = Objects.requireNonNull(
                    instances.get(metadata.get().activeHost()),
                    key + " on " + metadata.get().activeHost() + ", not a live instance");
            assertEquals(
                    2L,
                    owner.store("counts", QueryableStoreType.<String, Long>keyValueStore())
                            .get(key),
                    key + " on " + metadata.get().activeHost());
        }
    }

    private static Set<HostInfo> hosts(List<InstanceMetadata> all) {
        Set<HostInfo> hosts = new HashSet<>();
        all.forEach(m -> hosts.add(m.host()));
        return hosts;
    }

    private static WeirStreams start(KafkaBroker broker, Path dir, String server) {
        Map<String, Object> config = WindowedCountApp.config(broker, "iq-route", dir);
        config.put(StreamsConfig.APPLICATION_SERVER, server);
        WeirStreams app = new WeirStreams(counts(), config);
        app.start();
        return app;
    }
}
