package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger log = LoggerFactory.getLogger(JoinCrashTest.class);
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
        Instances instances =
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
        Instances instances =
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

    /** What one input step sends; the test keeps its own model of what was sent. */
    private interface Step {
        void send(KafkaProducer<String, String> producer, int i);
    }

    /** Two instances of a join in child JVMs; closing kills both. */
    private static final class Instances implements AutoCloseable {
        private final ChildInstance[] running = new ChildInstance[2];
        private final Path[] dirs;
        private final String[] args;

        Instances(Path[] dirs, String... args) {
            this.dirs = dirs;
            this.args = args;
        }

        void launch(int n) throws java.io.IOException {
            String[] withDir = java.util.Arrays.copyOf(args, args.length + 1);
            withDir[args.length] = dirs[n].toString();
            running[n] = ChildInstance.launch(JoinCrashTestApp.class, dirs[n], withDir);
        }

        void restart(int n) throws Exception {
            running[n].kill();
            launch(n);
        }

        @Override
        public void close() {
            for (ChildInstance instance : running) {
                if (instance != null) {
                    instance.close();
                }
            }
        }
    }

    /**
     * Starts two instances of {@code mode} and sends {@code steps} input steps, killing and restarting one
     * instance {@link #KILLS} times, each after the group committed more input; returns the instances,
     * still running, for the caller to check the output and close.
     */
    @SuppressWarnings("TooManyParameters") // one place launches both kinds of join
    private static Instances run(
            KafkaBroker broker,
            String app,
            String mode,
            String left,
            String right,
            String out,
            Path dirA,
            Path dirB,
            int steps,
            Step step)
            throws Exception {
        Instances instances =
                new Instances(new Path[] {dirA, dirB}, broker.bootstrapServers(), app, mode, left, right, out);
        boolean started = false;
        try (GroupOffsets offsets = new GroupOffsets(broker);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new StringSerializer(),
                        new StringSerializer())) {
            instances.launch(0);
            instances.launch(1);
            Random random = new Random(3);
            int segment = steps / (KILLS + 1);
            for (int i = 0; i < steps; i++) {
                step.send(producer, i);
                if (i % segment == segment - 1 && i < steps - 1) {
                    producer.flush();
                    long previous = offsets.committed(app);
                    await().atMost(Duration.ofMinutes(2)).until(() -> offsets.committed(app) > previous);
                    int victim = random.nextInt(2);
                    log.info("Kill: {} instance {} after {} input steps", mode, victim, i + 1);
                    instances.restart(victim);
                }
            }
            producer.flush();
            started = true;
            return instances;
        } finally {
            if (!started) {
                instances.close();
            }
        }
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
