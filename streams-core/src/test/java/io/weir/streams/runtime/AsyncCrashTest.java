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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mapValuesAsync} and {@code processAsync} under exactly-once with their instances killed ({@code
 * destroyForcibly()}) while calls are in flight: the {@code read_committed} output holds each record's answer
 * exactly once, and each key's answers in the order of its input, though the killed instance's open calls
 * were abandoned and its held records called for again by their next owner; {@code processAsync}'s count per
 * key, kept in its store, numbers each key's answers 1, 2, 3... The operator's store changelog shows that
 * commits did store records whose calls were still open.
 */
@ExtendWith(KafkaBrokerExtension.class)
class AsyncCrashTest {

    @Test
    void answersAreCommittedExactlyOnceInKeyOrderThroughKills(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) throws Exception {
        String app = "async-crash";
        String in = "async-crash-in";
        String out = "async-crash-out";
        broker.createTopic(in, 3);
        broker.createTopic(out, 3);
        broker.createTopic(out + AsyncCrashTestApp.COUNTED, 3);
        int steps = 6_000;
        Random random = new Random(11);
        KilledInstances instances = KilledInstances.run(
                broker,
                AsyncCrashTestApp.class,
                app,
                new String[] {broker.bootstrapServers(), app, in, out},
                new Path[] {dirA, dirB},
                steps,
                2,
                (producer, i) ->
                        producer.send(new ProducerRecord<>(in, "k" + random.nextInt(60), Integer.toString(i))));
        try (instances) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> TopicReader.read(broker, out, "read_committed").size() >= steps
                            && TopicReader.read(broker, out + AsyncCrashTestApp.COUNTED, "read_committed")
                                            .size()
                                    >= steps);
            List<ConsumerRecord<String, String>> answers = TopicReader.read(broker, out, "read_committed");
            Map<String, List<Integer>> byKey = new HashMap<>();
            boolean[] seen = new boolean[steps];
            int duplicates = 0;
            for (ConsumerRecord<String, String> r : answers) {
                int i = Integer.parseInt(r.value().substring("scored-".length()));
                duplicates += seen[i] ? 1 : 0;
                seen[i] = true;
                byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(i);
            }
            assertEquals(0, duplicates, "answers committed twice");
            assertEquals(steps, answers.size(), "each record's answer once");
            byKey.forEach((key, order) ->
                    assertEquals(order.stream().sorted().toList(), order, "the answers of " + key + " in input order"));
            long storedInFlight =
                    TopicReader.read(broker, app + "-" + AsyncCrashTestApp.OPERATOR + "-changelog", "read_committed")
                            .stream()
                            .filter(r -> r.value() != null)
                            .count();
            assertTrue(storedInFlight > 0, "no commit stored a record whose call was still open");
            assertCountedExactlyOnce(
                    TopicReader.read(broker, out + AsyncCrashTestApp.COUNTED, "read_committed"), steps);
        }
    }

    /**
     * {@code processAsync}'s output: each key's answers once each, in input order, and numbered 1, 2, 3...:
     * the count its store kept was neither repeated nor skipped by the kills.
     */
    private static void assertCountedExactlyOnce(List<ConsumerRecord<String, String>> counted, int steps) {
        assertEquals(steps, counted.size(), "each record counted once");
        Map<String, List<Integer>> byKey = new HashMap<>();
        for (ConsumerRecord<String, String> r : counted) {
            int colon = r.value().indexOf(':');
            List<Integer> order = byKey.computeIfAbsent(r.key(), k -> new ArrayList<>());
            assertEquals(
                    order.size() + 1,
                    Long.parseLong(r.value().substring(0, colon)),
                    "the count of " + r.key() + " after " + order.size() + " answers");
            order.add(Integer.parseInt(r.value().substring(colon + 1 + "scored-".length())));
        }
        byKey.forEach((key, order) ->
                assertEquals(order.stream().sorted().toList(), order, "the counted answers of " + key + " in order"));
    }
}
