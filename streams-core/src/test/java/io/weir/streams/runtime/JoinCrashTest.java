package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Joins under exactly-once with their instances killed (destroyForcibly(): no shutdown hook, no final
 * commit) while both inputs keep changing, checked against the read_committed output:
 * <ul>
 *   <li>a foreign-key join between tables with different partition counts, whose two sides talk through
 *       internal topics: the output applied as upserts must equal the relational join of the final
 *       tables, so no subscription, response or result was lost or applied twice;</li>
 *   <li>a windowed stream–stream join: every matching pair exactly once, none missing, none twice, though
 *       the buffers were restored from their changelogs after each kill.</li>
 * </ul>
 */
@ExtendWith(KafkaBrokerExtension.class)
class JoinCrashTest {

    private static final int KILLS = 2;

    @Test
    void aForeignKeyJoinNeitherLosesNorRepeatsAResultThroughKills(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) throws Exception {
        String orders = "fk-crash-orders";
        String customers = "fk-crash-customers";
        String out = "fk-crash-named-orders";
        broker.createTopic(orders, 3);
        broker.createTopic(customers, 2);
        broker.createTopic(out, 3);
        Map<String, String> orderTable = new HashMap<>();
        Map<String, String> customerTable = new HashMap<>();
        Random random = new Random(5);
        KilledInstances instances =
                run(broker, "fk-crash", "fk", orders, customers, out, dirA, dirB, 16_000, (producer, i) -> {
                    if (random.nextInt(4) == 0) {
                        String customer = "customer-" + random.nextInt(100);
                        String name = random.nextInt(10) == 0 ? null : "name-" + i;
                        producer.send(new ProducerRecord<>(customers, customer, name));
                        put(customerTable, customer, name);
                    } else {
                        String order = "order-" + random.nextInt(1_000);
                        String customer = random.nextInt(20) == 0 ? null : "customer-" + random.nextInt(100);
                        producer.send(new ProducerRecord<>(orders, order, customer));
                        put(orderTable, order, customer);
                    }
                });
        Map<String, String> expected = new TreeMap<>();
        orderTable.forEach((order, customer) -> {
            String name = customerTable.get(customer);
            if (name != null) {
                expected.put(order, name);
            }
        });
        assertTrue(expected.size() > 500, "most orders name a customer: " + expected.size());
        try (instances) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () -> assertEquals(expected, upserts(broker, out), "the committed output as upserts"));
        }
    }

    @Test
    void aWindowedJoinEmitsEveryPairExactlyOnceThroughKills(KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB)
            throws Exception {
        String left = "ss-crash-left";
        String right = "ss-crash-right";
        String out = "ss-crash-pairs";
        broker.createTopic(left, 3);
        broker.createTopic(right, 3);
        broker.createTopic(out, 3);
        long base = BaseTime.recentPast();
        List<String[]> lefts = new ArrayList<>();
        List<String[]> rights = new ArrayList<>();
        Random random = new Random(9);
        KilledInstances instances =
                run(broker, "ss-crash", "windowed", left, right, out, dirA, dirB, 12_000, (producer, i) -> {
                    boolean isLeft = random.nextBoolean();
                    String key = "k" + random.nextInt(300);
                    long time = base + 2L * i;
                    String value = (isLeft ? "L" : "R") + i + "@" + time;
                    producer.send(new ProducerRecord<>(isLeft ? left : right, null, time, key, value));
                    (isLeft ? lefts : rights).add(new String[] {key, value, Long.toString(time)});
                });
        Map<String, Integer> expected = new TreeMap<>();
        long window = JoinCrashTestApp.WINDOW.toMillis();
        for (String[] l : lefts) {
            for (String[] r : rights) {
                if (l[0].equals(r[0]) && Math.abs(Long.parseLong(l[2]) - Long.parseLong(r[2])) <= window) {
                    expected.merge(l[1] + "+" + r[1], 1, Integer::sum);
                }
            }
        }
        assertTrue(expected.size() > 1_000, "the streams have many pairs: " + expected.size());
        try (instances) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        Map<String, Integer> pairs = new TreeMap<>();
                        for (ConsumerRecord<String, String> r : TopicReader.read(broker, out, "read_committed")) {
                            pairs.merge(r.value(), 1, Integer::sum);
                        }
                        assertEquals(expected, pairs, "every pair once in the committed output");
                    });
        }
    }

    /**
     * Two instances of {@code mode} in child JVMs, one killed and restarted {@link #KILLS} times while
     * {@code steps} input steps are sent; returned running.
     */
    @SuppressWarnings("TooManyParameters") // one place launches both kinds of join
    private static KilledInstances run(
            KafkaBroker broker,
            String app,
            String mode,
            String left,
            String right,
            String out,
            Path dirA,
            Path dirB,
            int steps,
            KilledInstances.Step step)
            throws Exception {
        return KilledInstances.run(
                broker,
                JoinCrashTestApp.class,
                app,
                new String[] {broker.bootstrapServers(), app, mode, left, right, out},
                new Path[] {dirA, dirB},
                steps,
                KILLS,
                step);
    }

    private static void put(Map<String, String> table, String key, @Nullable String value) {
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }

    private static Map<String, String> upserts(KafkaBroker broker, String out) {
        Map<String, String> applied = new TreeMap<>();
        for (ConsumerRecord<String, String> r : TopicReader.read(broker, out, "read_committed")) {
            put(applied, r.key(), r.value());
        }
        return applied;
    }
}
