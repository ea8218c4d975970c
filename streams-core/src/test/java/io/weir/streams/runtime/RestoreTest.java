package io.weir.streams.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Local state is kept across stops: a store holds exactly what was committed, with the changelog
 * offset it reaches, so a restart replays only the changelog past it — after a kill, the tail; after
 * a clean close, nothing.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RestoreTest {

    private static final Logger log = LoggerFactory.getLogger(RestoreTest.class);
    private static final int PARTITIONS = 3;
    /** Distinct keys, all in one window that stays open: the store grows to this many entries. */
    private static final int KEYS = 300_000;

    /** What restoration a start did: per changelog partition the first offset replayed, and the records replayed. */
    private static final class Restored implements RestoreListener {
        final Map<TopicPartition, Long> from = new ConcurrentHashMap<>();
        final AtomicLong total = new AtomicLong();

        @Override
        public void onRestoreStart(TopicPartition changelog, String store, long start, long end) {
            from.put(changelog, start);
        }

        @Override
        public void onRestoreEnd(TopicPartition changelog, String store, long restored) {
            total.addAndGet(restored);
        }
    }

    @Test
    void aKilledInstanceRestoresOnlyTheChangelogTailAndACleanCloseRestoresNothing(KafkaBroker broker, @TempDir Path dir)
            throws Exception {
        broker.createTopic("tail-in", PARTITIONS);
        broker.createTopic("tail-out", PARTITIONS);
        String changelog = "tail-counts-changelog";
        CountInput input = new CountInput(broker, "tail-in", PARTITIONS);
        Map<String, Long> expected = input.produce(KEYS, 0, WindowedCountApp.WINDOW - 1, i -> "key-" + i);

        long committedAtKill;
        long changelogAtKill;
        try (GroupOffsets offsets = new GroupOffsets(broker);
                ChildInstance child =
                        ChildInstance.launch(broker, "tail", "tail-in", "tail-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> offsets.committed("tail") >= KEYS / 3);
            child.kill();
            committedAtKill = offsets.committed("tail");
            changelogAtKill = offsets.end(changelog);
        }
        log.info(
                "Killed with {} of {} input records committed; changelog end offsets sum to {}",
                committedAtKill,
                KEYS,
                changelogAtKill);

        Restored afterKill = new Restored();
        try (WeirStreams app =
                WindowedCountApp.instance(broker, "tail", "tail-in", "tail-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            app.setRestoreListener(afterKill);
            app.start();
            input.flush(1_000_000);
            await().atMost(Duration.ofMinutes(3))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "tail-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "tail-out"));
            assertTrue(app.close(Duration.ofSeconds(60)), "closed cleanly");
        }
        log.info("After the kill: restored {} changelog records, from offsets {}", afterKill.total, afterKill.from);
        // Every committed record reached the changelog as one distinct key: a full restore replays at least as many.
        assertTrue(
                committedAtKill > 0 && changelogAtKill >= committedAtKill,
                "the killed instance had built a store: " + committedAtKill + " committed, changelog "
                        + changelogAtKill);
        // The tail is what the killed process had not applied to its stores: the changelog records past
        // each store's offset, at most the transaction it was committing when it died. How large that
        // is beside what a store kept depends on where the kill lands (one transaction can carry tens
        // of thousands of a partition's records: 50,361 after a store had kept 5,635 in one run), so
        // the test holds what is true every time: a store that kept its contents restores from its
        // offset, not from 0, and the restore reads less than the changelog holds. A partition whose
        // first transaction was the one in flight replays from 0, as it should; not all of them can.
        long fromStart =
                afterKill.from.values().stream().filter(offset -> offset == 0).count();
        assertTrue(fromStart < PARTITIONS, "some store kept its contents through the kill: " + afterKill.from);
        assertTrue(
                afterKill.total.get() < changelogAtKill,
                "restored only the tail: " + afterKill.total + " of " + changelogAtKill + " changelog records");

        Restored afterClose = new Restored();
        try (WeirStreams app =
                WindowedCountApp.instance(broker, "tail", "tail-in", "tail-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            app.setRestoreListener(afterClose);
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
        }
        assertEquals(Map.of(), afterClose.from, "a clean close leaves nothing to restore");
        assertEquals(0, afterClose.total.get());
    }

    /**
     * A store without a changelog: no topic is created or written, the count works, and a task that
     * starts on another instance (a fresh state directory) restores nothing: the window it takes over
     * counts only what arrives after the move.
     */
    @Test
    void anUnloggedStoreHasNoChangelogAndAMovedTaskRestoresNothing(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) throws Exception {
        broker.createTopic("unlogged-in", 1);
        broker.createTopic("unlogged-out", 1);
        CountInput input = new CountInput(broker, "unlogged-in", 1);
        Topology topology = unloggedCount("unlogged-in", "unlogged-out");
        Restored restored = new Restored();
        try (WeirStreams app = new WeirStreams(topology, WindowedCountApp.config(broker, "unlogged", first))) {
            app.start();
            input.produce(3, 0, 3, i -> "k");
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> app.metrics().getOrDefault("source:unlogged-in/records-consumed", 0L) == 3);
            assertTrue(app.close(Duration.ofSeconds(60)), "closed cleanly, the three records committed");
        }
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            Set<String> topics = admin.listTopics().names().get();
            assertFalse(topics.contains("unlogged-counts-changelog"), "no changelog was created: " + topics);
        }
        try (WeirStreams app = new WeirStreams(topology, WindowedCountApp.config(broker, "unlogged", second))) {
            app.setRestoreListener(restored);
            app.start();
            input.produce(2, 5, 2, i -> "k");
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> CommittedPanes.assertCounts(
                            Map.of("k@" + input.base(), 2L),
                            CommittedPanes.finalCounts(CommittedPanes.read(broker, "unlogged-out")),
                            "unlogged-out"));
        }
        assertEquals(Map.of(), restored.from, "nothing to restore from");
    }

    private static Topology unloggedCount(String in, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        in,
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WindowedCountApp.WINDOW)))
                .count(Materialized.<String, Long>as("counts").withLoggingDisabled())
                .toStream()
                .to(out);
        return builder.build();
    }
}
