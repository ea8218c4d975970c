package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.RocksDbResources;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.task.PreopenedStores;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A member reports the state it has on disk for tasks no thread holds, with that state's lag. */
@ExtendWith(KafkaBrokerExtension.class)
class StateOnDiskTest {

    private static TopologySpec topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("disk-in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return TopologyAccess.spec(builder.build());
    }

    /** A task's store as a stopped instance left it: holding its changelog up to {@code offset}. */
    private static void storeOnDisk(Path appDir, String task, long offset) {
        try (RocksDbBytesStore store =
                RocksDbBytesStore.open("counts", appDir.resolve(task).resolve("counts"))) {
            store.write(new StoreBatch()
                    .put("k".getBytes(StandardCharsets.UTF_8), new byte[8])
                    .putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(offset)));
        }
    }

    private static void produce(KafkaBroker broker, String topic, int partition, int records) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, partition, "k" + i, "v"));
            }
        }
    }

    @Test
    void eachTaskFoundOnDiskAndNotTakenIsReportedWithTheRecordsItsChangelogHasPastIt(
            KafkaBroker broker, @TempDir Path appDir) {
        String changelog = topology().store("counts").changelogTopic("disk");
        broker.createTopic(changelog, 2);
        produce(broker, changelog, 0, 10);
        produce(broker, changelog, 1, 5);
        storeOnDisk(appDir, "0_0", 4);
        storeOnDisk(appDir, "0_1", 5);
        try (PreopenedStores found =
                        new PreopenedStores(appDir, topology(), "test-store-opener", RocksDbResources.unshared());
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            found.begin();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> found.unclaimedOffsets().size() == 2);
            StateOnDisk state =
                    new StateOnDisk(found, topology(), "disk", new ChangelogSizes(admin, Duration.ofSeconds(10)));
            assertEquals(Map.of(new TaskId(0, 0), 6L, new TaskId(0, 1), 0L), state.lags());

            found.open("counts", appDir.resolve("0_0").resolve("counts")).close();
            assertEquals(Map.of(new TaskId(0, 1), 0L), state.lags(), "a task a thread took is its to report");
        }
    }

    @Test
    void nothingIsReportedWhenTheChangelogEndsCannotBeRead(KafkaBroker broker, @TempDir Path appDir) {
        storeOnDisk(appDir, "0_0", 4);
        try (PreopenedStores found =
                        new PreopenedStores(appDir, topology(), "test-store-opener", RocksDbResources.unshared());
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            found.begin();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !found.unclaimedOffsets().isEmpty());
            StateOnDisk state =
                    new StateOnDisk(found, topology(), "no-such-app", new ChangelogSizes(admin, Duration.ofSeconds(2)));
            assertEquals(Map.of(), state.lags(), "its changelog does not exist");
        }
    }
}
