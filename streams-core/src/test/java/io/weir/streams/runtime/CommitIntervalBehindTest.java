package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
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
import java.util.TreeSet;

import static io.weir.streams.runtime.TopicReader.keys;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code commit.interval.behind.ms}: a thread behind its input commits at that interval, and at {@code
 * commit.interval.ms} again once it has caught up, so latency at low load is unchanged.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CommitIntervalBehindTest {

    private static final long BEHIND_MS = 120_000;

    /** {@code in -> mapValues (1 ms a record) -> out}: exactly-once, a commit every 100 ms, every 120 s while behind. */
    private static WeirStreams app(KafkaBroker broker, Path dir, String p) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> {
                    work();
                    return v;
                })
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 100);
        config.put(StreamsConfig.COMMIT_INTERVAL_BEHIND_MS, BEHIND_MS);
        // A transaction is committed anyway at half its timeout: far beyond this test's seconds behind.
        config.put("producer.transaction.timeout.ms", 60_000);
        return new WeirStreams(builder.build(), config);
    }

    /** A millisecond of work per record, so a pre-loaded input keeps the thread behind for seconds: the workload. */
    private static void work() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void produce(KafkaBroker broker, String topic, int from, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, String.format("k%05d", i), "v"));
            }
        }
    }

    @Test
    void aThreadBehindItsInputDoesNotCommitBeforeTheBehindInterval(KafkaBroker broker, @TempDir Path dir) {
        String p = "behind-lagging-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        int records = 1_500;
        produce(broker, p + "in", 0, records);
        // At a millisecond a record the thread is behind for at least 1.5 s: 15 commit intervals of 100 ms, none
        // of them a commit. Its first commit comes once it has caught up, so read_committed readers see the
        // whole input's output at once, exactly once.
        try (WeirStreams app = app(broker, dir, p)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> !read(broker, p + "out", "read_committed").isEmpty());
            List<String> keys = keys(read(broker, p + "out", "read_committed"));
            assertEquals(records, keys.size(), "the first committed output is the whole input's, once each");
            assertEquals(records, new TreeSet<>(keys).size());
        }
    }

    @Test
    void aThreadThatCaughtUpCommitsAtTheCommitInterval(KafkaBroker broker, @TempDir Path dir) {
        String p = "behind-caught-up-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        try (WeirStreams app = app(broker, dir, p)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
            // One record at a time: each is visible within seconds, far below the 120 s a thread behind waits.
            for (int i = 0; i < 3; i++) {
                produce(broker, p + "in", i, 1);
                int expected = i + 1;
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> read(broker, p + "out", "read_committed").size() >= expected);
            }
            assertEquals(3, read(broker, p + "out", "read_committed").size());
        }
    }
}
