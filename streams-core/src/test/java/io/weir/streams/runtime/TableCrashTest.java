package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A re-keyed table aggregation under exactly-once, its instances killed with destroyForcibly() while
 * the table's topic keeps changing (updates, moves between groups, deletes): the read_committed output
 * applied as upserts must equal the count per group of the final table, so no subtraction or addition
 * was lost or applied twice, and the source table's store, restored from its own topic after each
 * kill, held exactly what had been committed.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TableCrashTest {

    private static final Logger log = LoggerFactory.getLogger(TableCrashTest.class);
    private static final int PARTITIONS = 3;
    private static final int UPDATES = 40_000;
    private static final int KILLS = 3;
    private static final int USERS = 2_000;
    private static final int REGIONS = 20;

    @Test
    void killedInstancesNeitherLoseNorRepeatASubtractionOrAnAddition(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) throws Exception {
        String app = "table-crash";
        String in = "table-crash-profiles";
        String out = "table-crash-regions";
        broker.createTopic(in, PARTITIONS);
        broker.createTopic(out, PARTITIONS);
        Map<String, String> table = new HashMap<>();
        Path[] dirs = {dirA, dirB};
        ChildInstance[] instances = {
            ChildInstance.launch(
                    TableCrashTestApp.class, dirA, broker.bootstrapServers(), app, in, out, dirA.toString()),
            ChildInstance.launch(
                    TableCrashTestApp.class, dirB, broker.bootstrapServers(), app, in, out, dirB.toString())
        };
        Random random = new Random(11);
        int segment = UPDATES / (KILLS + 1);
        try (GroupOffsets offsets = new GroupOffsets(broker);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new StringSerializer(),
                        new StringSerializer())) {
            long time = BaseTime.recentPast();
            for (int i = 0; i < UPDATES; i++) {
                String user = "user-" + random.nextInt(USERS);
                String region = random.nextInt(10) == 0 ? null : "region-" + random.nextInt(REGIONS);
                // Sent synchronously per segment end only; a failed send fails the test, so the table is known.
                producer.send(new ProducerRecord<>(in, null, time + i, user, region));
                if (region == null) {
                    table.remove(user);
                } else {
                    table.put(user, region);
                }
                if (i % segment == segment - 1 && i < UPDATES - 1) {
                    producer.flush();
                    long previous = offsets.committed(app);
                    await().atMost(Duration.ofMinutes(2)).until(() -> offsets.committed(app) > previous);
                    int victim = random.nextInt(2);
                    log.info("Kill: instance {} at ~{} committed updates of {}", victim, offsets.committed(app), i + 1);
                    instances[victim].kill();
                    instances[victim] = ChildInstance.launch(
                            TableCrashTestApp.class,
                            dirs[victim],
                            broker.bootstrapServers(),
                            app,
                            in,
                            out,
                            dirs[victim].toString());
                }
            }
            producer.flush();
            Map<String, Long> expected = new TreeMap<>();
            table.values().forEach(region -> expected.merge(region, 1L, Long::sum));
            assertEquals(REGIONS, expected.size(), "every region has users");
            // The aggregation's tasks emit at their commits, after the table's tasks: wait for the output itself.
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertEquals(
                            expected, committedOutput(broker, out), "the committed output, " + "applied as upserts"));
        } finally {
            for (ChildInstance instance : instances) {
                instance.kill();
            }
        }
    }

    private static Map<String, Long> committedOutput(KafkaBroker broker, String out) {
        Map<String, Long> applied = new TreeMap<>();
        for (ConsumerRecord<String, String> r : TopicReader.read(broker, out, "read_committed")) {
            if (r.value() == null) {
                applied.remove(r.key());
            } else {
                applied.put(r.key(), Long.parseLong(r.value()));
            }
        }
        return applied;
    }
}
