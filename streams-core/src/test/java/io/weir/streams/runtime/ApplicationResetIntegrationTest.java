package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.tools.ApplicationReset;
import io.weir.streams.tools.ResetPlan;
import io.weir.streams.tools.ResetRefusedException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reset tool on a real broker: a dry run changes nothing and prints the plan; a reset deletes the
 * application's internal topics and no other topic, moves the input offsets where asked and clears the
 * local state directory; it refuses while an instance runs or a member stays in the group; and after a
 * reset and a restart, a table aggregation's output is computed again exactly once.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ApplicationResetIntegrationTest {

    private static final String P = "reset-";
    private static final List<String> COLORS = List.of("red", "green", "blue", "amber", "violet");

    private final KafkaBroker broker;
    private Admin admin;

    ApplicationResetIntegrationTest(KafkaBroker broker) {
        this.broker = broker;
    }

    @BeforeEach
    void openAdmin() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    @AfterEach
    void closeAdmin() {
        admin.close();
    }

    /** Counts the input's values (colors): a repartition by value, a changelog, every change emitted. */
    private WeirStreams app(String app, String in, String out, Path stateDir, Map<String, Object> extra) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as("counts").withEmitEveryChange())
                .toStream()
                .mapValues(String::valueOf)
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, app, stateDir);
        config.put("commit.interval.ms", 100);
        config.putAll(extra);
        return new WeirStreams(builder.build(), config);
    }

    /** Writes {@code n} records, keys k0.., values cycling through the colors; returns each color's count. */
    private Map<String, Long> produce(String topic, int n) {
        Map<String, Long> counts = new TreeMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < n; i++) {
                String color = COLORS.get((i * 7 + i / 3) % COLORS.size());
                producer.send(new ProducerRecord<>(topic, "k" + i, color));
                counts.merge(color, 1L, Long::sum);
            }
        }
        return counts;
    }

    private Map<TopicPartition, Long> committed(String group, String topic) throws Exception {
        Map<TopicPartition, Long> offsets = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS)
                .forEach((tp, o) -> {
                    if (o != null && tp.topic().equals(topic)) {
                        offsets.put(tp, o.offset());
                    }
                });
        return offsets;
    }

    private Set<String> topics() throws Exception {
        return new TreeSet<>(admin.listTopics().names().get(10, TimeUnit.SECONDS));
    }

    private static Set<String> entries(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The output's records from offset {@code from} of each partition on, read_committed: each color's counts in order. */
    private Map<String, List<String>> countsSince(String out, Map<Integer, Long> from) {
        Map<String, List<String>> counts = new TreeMap<>();
        for (ConsumerRecord<String, String> r : TopicReader.read(broker, out, "read_committed")) {
            if (r.offset() >= from.getOrDefault(r.partition(), 0L)) {
                counts.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
            }
        }
        return counts;
    }

    /** What each color's counts must be: 1, 2, ..., its total, each once. */
    private static Map<String, List<String>> once(Map<String, Long> totals) {
        Map<String, List<String>> counts = new TreeMap<>();
        totals.forEach((color, n) -> counts.put(
                color,
                IntStream.rangeClosed(1, n.intValue()).mapToObj(String::valueOf).toList()));
        return counts;
    }

    private Map<Integer, Long> ends(String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < 2; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<Integer, Long> ends = new HashMap<>();
        admin.listOffsets(latest)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
        return ends;
    }

    private void runUntilProcessed(
            WeirStreams instance, String app, String in, String out, Map<Integer, Long> since, Map<String, Long> totals)
            throws Exception {
        instance.start();
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> countsSince(out, since).equals(once(totals)));
        Map<Integer, Long> inputEnd = ends(in);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> committed(app, in).values().stream()
                                .mapToLong(Long::longValue)
                                .sum()
                        == inputEnd.values().stream().mapToLong(Long::longValue).sum());
    }

    private static String[] cli(String... args) {
        return args;
    }

    private record Run(int status, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ApplicationReset.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDryRunChangesNothingAndAResetAndRestartComputeTheOutputAgainExactlyOnce(@TempDir Path stateDir)
            throws Exception {
        String app = P + "colors";
        String in = P + "colors-in";
        String out = P + "colors-out";
        String userTopic = app + "-notes"; // the application's prefix, but no internal suffix: the user's
        String otherApp = app + "-eu"; // another application whose id extends this one's
        String othersChangelog = otherApp + "-counts-changelog";
        broker.createTopic(in, 2);
        broker.createTopic(out, 2);
        broker.createTopic(userTopic, 1);
        broker.createTopic(othersChangelog, 1);
        admin.alterConsumerGroupOffsets(otherApp, Map.of(new TopicPartition(userTopic, 0), new OffsetAndMetadata(0)))
                .all()
                .get(10, TimeUnit.SECONDS);

        Map<String, Long> totals = produce(in, 60);
        try (WeirStreams first = app(app, in, out, stateDir, Map.of())) {
            runUntilProcessed(first, app, in, out, Map.of(), totals);
            first.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
        }
        Path appDir = stateDir.resolve(app);
        String processId = Files.readString(appDir.resolve("weir-process-id"));
        Set<String> internal = topics().stream()
                .filter(t -> t.startsWith(app + "-") && !t.startsWith(otherApp + "-"))
                .filter(t -> t.endsWith("-changelog") || t.endsWith("-repartition"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(internal.contains(app + "-counts-changelog"), internal.toString());
        assertTrue(internal.stream().anyMatch(t -> t.endsWith("-repartition")), internal.toString());

        // A dry run prints the plan and changes nothing.
        Set<String> topicsBefore = topics();
        Map<TopicPartition, Long> offsetsBefore = committed(app, in);
        Set<String> stateBefore = entries(appDir);
        assertTrue(stateBefore.size() > 2, "task directories next to the lock and the identity: " + stateBefore);
        Run dry = run(cli(
                "--application-id",
                app,
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--state-dir",
                stateDir.toString(),
                "--dry-run"));
        assertEquals(0, dry.status(), dry.out() + dry.err());
        assertTrue(dry.out().contains("DRY RUN"), dry.out());
        internal.forEach(t -> assertTrue(dry.out().contains("     " + t + "\n"), t + " in\n" + dry.out()));
        offsetsBefore.forEach(
                (tp, o) -> assertTrue(dry.out().contains(tp + "  " + o + " -> 0"), tp + " in\n" + dry.out()));
        assertTrue(dry.out().contains("clear " + appDir), dry.out());
        assertTrue(dry.out().contains("kept " + othersChangelog), dry.out());
        assertFalse(dry.out().contains(userTopic + "\n"), dry.out());
        assertEquals(topicsBefore, topics());
        assertEquals(offsetsBefore, committed(app, in));
        assertEquals(stateBefore, entries(appDir));

        // The reset.
        ResetPlan done = ApplicationReset.of(app, broker.bootstrapServers())
                .withStateDir(stateDir)
                .execute();
        assertFalse(done.refused());
        assertEquals(internal, new TreeSet<>(done.topicsToDelete()));
        Set<String> after = topics();
        internal.forEach(t -> assertFalse(after.contains(t), t + " deleted"));
        assertTrue(after.containsAll(List.of(in, out, userTopic, othersChangelog)), after.toString());
        committed(app, in).values().forEach(o -> assertEquals(0L, o));
        assertEquals(Set.of(".lock", "weir-process-id"), entries(appDir));
        assertEquals(processId, Files.readString(appDir.resolve("weir-process-id")), "the identity is kept");

        // Restarted, the application computes its output again: each count once, none missing.
        Map<Integer, Long> outputBefore = ends(out);
        try (WeirStreams second = app(app, in, out, stateDir, Map.of())) {
            runUntilProcessed(second, app, in, out, outputBefore, totals);
            second.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
        }
        assertEquals(once(totals), countsSince(out, outputBefore));
        assertEquals(
                once(totals),
                countsSince(out, Map.of()).entrySet().stream()
                        .collect(Collectors.toMap(
                                Map.Entry::getKey,
                                e -> e.getValue().subList(0, e.getValue().size() / 2),
                                (a, b) -> a,
                                TreeMap::new)),
                "the first run's output, before the reset, once too");
    }

    @Test
    void refusedWhileAnInstanceRunsAndWhileAStoppedStaticMemberStaysUnlessForced(@TempDir Path stateDir)
            throws Exception {
        String app = P + "live";
        String in = P + "live-in";
        String out = P + "live-out";
        broker.createTopic(in, 2);
        broker.createTopic(out, 2);
        Map<String, Long> totals = produce(in, 10);
        // A long session: the stopped static member stays in the group for the whole test.
        WeirStreams instance = app(app, in, out, stateDir, Map.of("consumer.session.timeout.ms", 120_000));
        try {
            runUntilProcessed(instance, app, in, out, Map.of(), totals);
            Map<TopicPartition, Long> offsets = committed(app, in);

            Run refused = run(cli(
                    "--application-id", app,
                    "--bootstrap-servers", broker.bootstrapServers(),
                    "--state-dir", stateDir.toString()));
            assertEquals(1, refused.status(), refused.out() + refused.err());
            assertTrue(refused.out().contains("REFUSED"), refused.out());
            assertTrue(refused.out().contains("static member " + app + "-"), refused.out());
            assertTrue(refused.out().contains("is in use by"), refused.out());
            assertTrue(refused.err().startsWith("weir-reset: refused: "), refused.err());
            ResetRefusedException e = assertThrows(
                    ResetRefusedException.class,
                    () -> ApplicationReset.of(app, broker.bootstrapServers())
                            .withStateDir(stateDir)
                            .execute());
            assertTrue(e.getMessage().contains("member(s)"), e.getMessage());
            assertEquals(offsets, committed(app, in), "nothing changed");

            instance.close(); // a static member: it does not leave the group
            ResetPlan stopped = ApplicationReset.of(app, broker.bootstrapServers())
                    .withStateDir(stateDir)
                    .plan();
            assertTrue(stopped.refused());
            assertEquals(1, stopped.refusals().size(), stopped.toString());
            assertTrue(stopped.refusals().get(0).contains("--force"), stopped.toString());
            assertEquals(1, stopped.members().size(), stopped.toString());

            ResetPlan forced = ApplicationReset.of(app, broker.bootstrapServers())
                    .withStateDir(stateDir)
                    .withForce(true)
                    .execute();
            assertEquals(stopped.members(), forced.members());
            assertTrue(admin.describeConsumerGroups(List.of(app))
                    .describedGroups()
                    .get(app)
                    .get(10, TimeUnit.SECONDS)
                    .members()
                    .isEmpty());
            committed(app, in).values().forEach(o -> assertEquals(0L, o));
        } finally {
            instance.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true));
        }
    }

    @Test
    void offsetsGoToEarliestLatestATimeOrAnOffsetPerPartition() throws Exception {
        String app = P + "offsets";
        String in = P + "offsets-in";
        broker.createTopic(in, 2);
        TopicPartition p0 = new TopicPartition(in, 0);
        TopicPartition p1 = new TopicPartition(in, 1);
        long base = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(in, 0, base + i * 1000L, "k", "v"));
                producer.send(new ProducerRecord<>(in, 1, base + i * 1000L, "k", "v"));
            }
        }
        admin.deleteRecords(Map.of(p0, RecordsToDelete.beforeOffset(2))).all().get(10, TimeUnit.SECONDS);
        admin.alterConsumerGroupOffsets(app, Map.of(p0, new OffsetAndMetadata(5), p1, new OffsetAndMetadata(5)))
                .all()
                .get(10, TimeUnit.SECONDS);
        ApplicationReset reset = ApplicationReset.of(app, broker.bootstrapServers());

        assertEquals(Map.of(p0, 2L, p1, 0L), reset.plan().newOffsets(), "earliest: the first offset left");
        assertEquals(Map.of(p0, 10L, p1, 10L), reset.toLatest().plan().newOffsets());
        assertEquals(
                Map.of(p0, 3L, p1, 3L),
                reset.toTime(Instant.ofEpochMilli(base + 2500)).plan().newOffsets());
        ResetPlan future = reset.toTime(Instant.ofEpochMilli(base + 100_000)).plan();
        assertEquals(Map.of(p0, 10L, p1, 10L), future.newOffsets());
        assertTrue(future.toString().contains("no record at or after"), future.toString());
        ResetPlan perPartition = reset.toOffset(1).withPartitionOffset(p1, 7).plan();
        assertEquals(Map.of(p0, 2L, p1, 7L), perPartition.newOffsets());
        assertTrue(
                perPartition.toString().contains(p0 + "  5 -> 2   (offset 1 asked is before the partition's first)"),
                perPartition.toString());
        assertEquals(Map.of(p0, 10L, p1, 10L), reset.toOffset(50).plan().newOffsets());

        ResetPlan missing = reset.withInputTopics(List.of(in, P + "nope"))
                .withPartitionOffset(new TopicPartition(in, 5), 1)
                .plan();
        assertEquals(
                List.of(
                        "topic " + P + "nope does not exist",
                        "--offset " + in + ":5=1 names a partition that does not exist"),
                missing.refusals());
        assertThrows(
                ResetRefusedException.class,
                () -> reset.withInputTopics(List.of(P + "nope")).execute());
        assertEquals(Map.of(p0, 5L, p1, 5L), committed(app, in), "a refused reset changes nothing");

        reset.toTime(Instant.ofEpochMilli(base + 6000)).execute();
        assertEquals(Map.of(p0, 6L, p1, 6L), committed(app, in));
    }
}
