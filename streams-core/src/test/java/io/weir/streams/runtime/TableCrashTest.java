package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

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
        Random random = new Random(11);
        long time = BaseTime.recentPast();
        KilledInstances instances = KilledInstances.run(
                broker,
                TableCrashTestApp.class,
                app,
                new String[] {broker.bootstrapServers(), app, in, out},
                new Path[] {dirA, dirB},
                UPDATES,
                KILLS,
                (producer, i) -> {
                    String user = "user-" + random.nextInt(USERS);
                    String region = random.nextInt(10) == 0 ? null : "region-" + random.nextInt(REGIONS);
                    // Not waited for: the flush at each kill and at the end waits for every send.
                    producer.send(new ProducerRecord<>(in, null, time + i, user, region));
                    if (region == null) {
                        table.remove(user);
                    } else {
                        table.put(user, region);
                    }
                });
        try (instances) {
            Map<String, Long> expected = new TreeMap<>();
            table.values().forEach(region -> expected.merge(region, 1L, Long::sum));
            assertEquals(REGIONS, expected.size(), "every region has users");
            // The aggregation's tasks emit at their commits, after the table's tasks: wait for the output itself.
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertEquals(
                            expected, committedOutput(broker, out), "the committed output, " + "applied as upserts"));
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
