package io.weir.streams.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** What restoration a start did: per changelog partition the first offset replayed and the records replayed. */
    private static final class Restored implements RestoreListener {
        final Map<TopicPartition, Long> from = new ConcurrentHashMap<>();
        final Map<TopicPartition, Long> replayed = new ConcurrentHashMap<>();
        final AtomicLong total = new AtomicLong();

        @Override
        public void onRestoreStart(TopicPartition changelog, String store, long start, long end) {
            from.put(changelog, start);
        }

        @Override
        public void onRestoreEnd(TopicPartition changelog, String store, long restored) {
            replayed.put(changelog, restored);
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
             ChildInstance child = ChildInstance.launch(broker, "tail", "tail-in", "tail-out", dir,
                     StreamsConfig.EXACTLY_ONCE)) {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                    .until(() -> offsets.committed("tail") >= KEYS / 3);
            child.kill();
            committedAtKill = offsets.committed("tail");
            changelogAtKill = offsets.end(changelog);
        }
        log.info("Killed with {} of {} input records committed; changelog end offsets sum to {}",
                committedAtKill, KEYS, changelogAtKill);

        Restored afterKill = new Restored();
        try (WeirStreams app = WindowedCountApp.instance(broker, "tail", "tail-in", "tail-out", dir,
                StreamsConfig.EXACTLY_ONCE)) {
            app.setRestoreListener(afterKill);
            app.start();
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(180)).untilAsserted(() ->
                    CommittedPanes.assertFinalCounts(expected, broker, "tail-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "tail-out"));
            assertTrue(app.close(Duration.ofSeconds(60)), "closed cleanly");
        }
        log.info("After the kill: restored {} changelog records, from offsets {}", afterKill.total, afterKill.from);
        // Every committed record reached the changelog as one distinct key: a full restore replays at least as many.
        assertTrue(committedAtKill > 0 && changelogAtKill >= committedAtKill,
                "the killed instance had built a store: " + committedAtKill + " committed, changelog " + changelogAtKill);
        // The tail is what the killed process had not written to its store: at most the transaction it
        // was committing, so less than what the store kept. A partition whose first transaction was
        // the one in flight replays from 0, as it should: the kill comes right after the committed
        // offsets pass a third of the input, often between a commit and its store write, and one
        // transaction can carry tens of thousands of a partition's records (2,146 in a CI run, 33,881
        // in a local one). A store that lost its contents replays from 0 too, so not every partition may.
        long fromStart = afterKill.from.values().stream().filter(offset -> offset == 0).count();
        assertTrue(fromStart < PARTITIONS, "some store kept its contents through the kill: " + afterKill.from);
        afterKill.from.forEach((tp, offset) -> {
            if (offset > 0) {
                assertTrue(afterKill.replayed.get(tp) < offset, tp + " replayed " + afterKill.replayed.get(tp)
                        + " records, more than the " + offset + " its store kept");
            }
        });
        assertTrue(afterKill.total.get() < changelogAtKill / 2,
                "restored only the tail: " + afterKill.total + " of " + changelogAtKill + " changelog records");

        Restored afterClose = new Restored();
        try (WeirStreams app = WindowedCountApp.instance(broker, "tail", "tail-in", "tail-out", dir,
                StreamsConfig.EXACTLY_ONCE)) {
            app.setRestoreListener(afterClose);
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
        }
        assertEquals(Map.of(), afterClose.from, "a clean close leaves nothing to restore");
        assertEquals(0, afterClose.total.get());
    }
}
