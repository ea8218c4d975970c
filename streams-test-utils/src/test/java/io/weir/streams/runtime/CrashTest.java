package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Windowed;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Instances run in child JVMs and are killed with destroyForcibly() at random moments while the test
 * keeps producing; under exactly-once the read_committed output must equal the reference result
 * exactly: every window's count right, one pane per window, nothing missing.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CrashTest {

    private static final Logger log = LoggerFactory.getLogger(CrashTest.class);
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 200_000;
    private static final int KILLS = 5;
    /**
     * Event times in the recent past, ending before now: the broker deletes records by timestamp
     * (retention.ms), so 1970 would vanish mid-test, and rejects timestamps too far in the future.
     */
    private static final long BASE_TIME = BaseTime.recentPast();

    private static Process launch(KafkaBroker broker, String app, String in, String out, Path state, String guarantee)
            throws IOException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), CrashTestApp.class.getName(),
                broker.bootstrapServers(), app, in, out, state.toString(), guarantee)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(state)))
                .start();
        return p;
    }

    /** Child logs go under target/ (build output), kept for a failing run's post-mortem. */
    private static java.io.File logFile(Path state) throws IOException {
        Path dir = Path.of("target", "crash-test-logs");
        java.nio.file.Files.createDirectories(dir);
        return dir.resolve(state.getFileName() + ".log").toFile();
    }

    /** Appends a child's thread dump to its log, for the post-mortem of a stalled run. */
    private static void threadDump(Process p, Path state) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        new ProcessBuilder(jcmd.toString(), Long.toString(p.pid()), "Thread.print").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(state))).start().waitFor(30, TimeUnit.SECONDS);
    }

    /** The sum of the input partitions' end offsets: everything the instances must have committed. */
    private static long inputEnd(KafkaBroker broker, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            return c.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static long committed(Admin admin, String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        return offsets.values().stream().filter(java.util.Objects::nonNull).mapToLong(OffsetAndMetadata::offset).sum();
    }

    /** What a run produced: the committed panes by key@window, and the true counts. */
    private record Outcome(Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes, Map<String, Long> expected) {
    }

    /** Produces the stream while killing instances at random moments; returns once all input is committed. */
    private static Outcome run(KafkaBroker broker, String guarantee, Path dirA, Path dirB) throws Exception {
        String app = "crash-" + guarantee;
        String in = app + "-in";
        String out = app + "-out";
        broker.createTopic(in, PARTITIONS);
        broker.createTopic(out, PARTITIONS);
        Map<String, Long> expected = new TreeMap<>();
        AtomicLong produced = new AtomicLong();
        AtomicLong failedSends = new AtomicLong();
        Process[] instances = {launch(broker, app, in, out, dirA, guarantee),
                launch(broker, app, in, out, dirB, guarantee)};
        Path[] dirs = {dirA, dirB};
        Random random = new Random(42);
        CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.LINGER_MS_CONFIG, 5), new StringSerializer(), new StringSerializer())) {
                Random keys = new Random(7);
                for (int i = 0; i < RECORDS; i++) {
                    String key = "k" + keys.nextInt(20);
                    long t = BASE_TIME + i * 5L;
                    // Only what the broker acknowledged is input; a send that failed is not expected out.
                    producer.send(new ProducerRecord<>(in, null, t, key, "v"), (metadata, e) -> {
                        if (e == null) {
                            synchronized (expected) {
                                expected.merge(key + "@" + (t - t % WindowedCountApp.WINDOW), 1L, Long::sum);
                            }
                            produced.incrementAndGet();
                        } else {
                            failedSends.incrementAndGet();
                        }
                    });
                    if (i % 2_000 == 0) {
                        producer.flush();
                    }
                }
                for (int p = 0; p < PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(in, p, BASE_TIME + RECORDS * 5L + 2 * WindowedCountApp.WINDOW,
                            CommittedPanes.FLUSH_KEY, "v"));
                }
            }
        });
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            for (int kill = 0; kill < KILLS; kill++) {
                long before = committed(admin, app);
                long step = 5_000 + random.nextInt(20_000);
                await().atMost(Duration.ofSeconds(120)).until(() -> committed(admin, app) >= Math.min(before + step,
                        RECORDS * 9L / 10));
                int victim = random.nextInt(2);
                log.info("Kill {}: instance {} at ~{} committed input records ({} produced)", kill + 1, victim,
                        committed(admin, app), produced.get());
                instances[victim].destroyForcibly().waitFor();
                instances[victim] = launch(broker, app, in, out, dirs[victim], guarantee);
            }
            producing.get(180, TimeUnit.SECONDS);
            long inputEnd = inputEnd(broker, in);
            log.info("Input: {} records acknowledged, {} sends failed, log end {}", produced.get(), failedSends.get(), inputEnd);
            try {
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> committed(admin, app), n -> n >= inputEnd);
            } catch (org.awaitility.core.ConditionTimeoutException stalled) {
                for (int i = 0; i < instances.length; i++) {
                    threadDump(instances[i], dirs[i]);
                }
                throw stalled;
            }
        } finally {
            for (Process p : instances) {
                p.destroyForcibly().waitFor();
            }
        }
        return new Outcome(CommittedPanes.read(broker, out), expected);
    }

    @Test
    void killedInstancesLoseNothingAndDuplicateNothingUnderExactlyOnce(KafkaBroker broker, @TempDir Path dirA,
                                                                      @TempDir Path dirB) throws Exception {
        Outcome outcome = run(broker, StreamsConfig.EXACTLY_ONCE, dirA, dirB);
        Map<String, Long> finals = new TreeMap<>();
        outcome.panes().forEach((k, list) -> {
            assertEquals(1, list.size(), "one pane for " + k + " despite " + KILLS + " kills: " + list);
            assertEquals(PaneInfo.Timing.ON_TIME, PaneInfo.from(list.get(0).headers()).orElseThrow().timing());
            finals.put(k, list.get(0).value());
        });
        assertEquals(outcome.expected(), finals, "every window's count exact");
        assertTrue(outcome.expected().size() > 1_000, "the run covered many windows: " + outcome.expected().size());
    }

    /**
     * The same kills under at_least_once, to show the difference honestly: nothing is lost (every
     * window is there, counting at least its records), but replayed input can repeat panes and, since
     * changelog writes and offsets are not atomic, over-count windows. The test reports how much.
     */
    @Test
    void atLeastOnceLosesNothingButMayRepeat(KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) throws Exception {
        Outcome outcome = run(broker, StreamsConfig.AT_LEAST_ONCE, dirA, dirB);
        Map<String, Long> last = new TreeMap<>();
        outcome.panes().forEach((k, list) -> last.put(k, list.get(list.size() - 1).value()));
        assertEquals(outcome.expected().keySet(), last.keySet(), "every window has a result");
        long repeatedPanes = outcome.panes().values().stream().filter(list -> list.size() > 1).count();
        long overCounted = outcome.expected().entrySet().stream().filter(e -> last.get(e.getKey()) > e.getValue()).count();
        outcome.expected().forEach((k, n) -> assertTrue(last.get(k) >= n, k + " lost records: " + last.get(k) + " < " + n));
        log.info("at_least_once after {} kills: {} of {} windows repeated a pane, {} over-counted",
                KILLS, repeatedPanes, outcome.expected().size(), overCounted);
    }

}
