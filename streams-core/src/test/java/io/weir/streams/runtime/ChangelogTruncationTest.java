package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A store whose changelog lost records the store has not applied (deleted by retention or by an operator,
 * or a changelog recreated) is wiped and restored from what the changelog still has, so it holds what any
 * instance restoring from the changelog would hold. Skipping to the changelog's end would keep the stale
 * local state; replaying the rest onto it would keep stale values (and deleted keys) whose newer writes
 * were among the deleted records. A store that has applied everything the changelog lost is kept.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ChangelogTruncationTest {

    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4");

    @Test
    void aStoreBehindTheChangelogsStartIsWipedAndRestoredFromWhatIsLeft(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) throws Exception {
        topics(broker, "behind");
        CountInput input = new CountInput(broker, in("behind"), 1);
        try (Admin admin = admin(broker)) {
            // One record per key, counted by an instance on `first`, which closes cleanly: its store holds the
            // changelog up to its end (the commit marker of its last transaction).
            countOneRecordPerKey(broker, "behind", input, first, 1_000);
            long firstStoreEnd = endOffset(admin, "behind");

            // The same keys counted again by an instance on `second` (restored from the changelog: count 2).
            countOneRecordPerKey(broker, "behind", input, second, 2_000);

            // The changelog loses its records before firstStoreEnd + 1: one of `second`'s writes is gone, and
            // `first`'s store is now behind the changelog's start.
            deleteBefore(admin, "behind", firstStoreEnd + 1);
        }
        assertEquals(
                List.of(1L, 3L, 3L, 3L, 3L),
                countAgainAndFlush(broker, "behind", input, first),
                "four keys restored from the changelog's count of 2 (plus 1); the key whose last write was deleted "
                        + "starts over, as on any other instance, not from the stale local count");
    }

    @Test
    void aStoreIsKeptWhenTheChangelogLostOnlyWhatTheStoreHolds(KafkaBroker broker, @TempDir Path dir) throws Exception {
        topics(broker, "kept");
        CountInput input = new CountInput(broker, in("kept"), 1);
        try (Admin admin = admin(broker)) {
            countOneRecordPerKey(broker, "kept", input, dir, 1_000);
            // Everything up to the end goes, as time retention does to a changelog nobody wrote for a while:
            // the store has applied all of it, the commit marker included.
            deleteBefore(admin, "kept", endOffset(admin, "kept"));
        }
        assertEquals(
                List.of(2L, 2L, 2L, 2L, 2L),
                countAgainAndFlush(broker, "kept", input, dir),
                "the local counts (1) were kept, not wiped");
    }

    /** A deleted changelog fails the task by default (ChangelogRecreationTest); here the rebuild is allowed. */
    @Test
    void aStoreAheadOfADeletedChangelogIsWipedWhenTheRebuildIsAllowed(KafkaBroker broker, @TempDir Path dir)
            throws Exception {
        topics(broker, "recreated");
        CountInput input = new CountInput(broker, in("recreated"), 1);
        try (Admin admin = admin(broker)) {
            countOneRecordPerKey(broker, "recreated", input, dir, 1_000);
            admin.deleteTopics(List.of(changelog("recreated").topic())).all().get();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !admin.listTopics()
                            .names()
                            .get()
                            .contains(changelog("recreated").topic()));
        }
        assertEquals(
                List.of(1L, 1L, 1L, 1L, 1L),
                countAgainAndFlush(
                        broker, "recreated", input, dir, Map.of(StreamsConfig.CHANGELOG_DELETED_REBUILD, true)),
                "the store was rebuilt from the new, empty changelog, as changelog.deleted.rebuild allows");
    }

    /** Sends one more record per key and a flush, runs an instance on {@code dir}, and returns the final counts, sorted. */
    private static List<Long> countAgainAndFlush(KafkaBroker broker, String app, CountInput input, Path dir) {
        return countAgainAndFlush(broker, app, input, dir, Map.of());
    }

    private static List<Long> countAgainAndFlush(
            KafkaBroker broker, String app, CountInput input, Path dir, Map<String, ?> extra) {
        KEYS.forEach(k -> input.send(0, 3_000, k));
        input.flush(WindowedCountApp.WINDOW * 2);
        try (WeirStreams instance =
                WindowedCountApp.instance(broker, app, in(app), out(app), dir, StreamsConfig.EXACTLY_ONCE, extra)) {
            instance.start();
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> CommittedPanes.read(broker, out(app)).size() == KEYS.size());
        }
        return CommittedPanes.finalCounts(CommittedPanes.read(broker, out(app))).values().stream()
                .sorted()
                .toList();
    }

    private static void countOneRecordPerKey(
            KafkaBroker broker, String app, CountInput input, Path stateDir, long atMs) {
        KEYS.forEach(k -> input.send(0, atMs, k));
        try (WeirStreams instance = instance(broker, app, stateDir)) {
            instance.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> instance.metrics().getOrDefault("source:" + in(app) + "/records-consumed", 0L)
                            == KEYS.size());
            instance.close(Duration.ofSeconds(30));
        }
    }

    private static WeirStreams instance(KafkaBroker broker, String app, Path stateDir) {
        return WindowedCountApp.instance(broker, app, in(app), out(app), stateDir, StreamsConfig.EXACTLY_ONCE);
    }

    private static void topics(KafkaBroker broker, String app) {
        broker.createTopic(in(app), 1);
        broker.createTopic(out(app), 1);
    }

    private static String in(String app) {
        return app + "-in";
    }

    private static String out(String app) {
        return app + "-out";
    }

    private static TopicPartition changelog(String app) {
        return new TopicPartition(app + "-counts-changelog", 0);
    }

    private static Admin admin(KafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static void deleteBefore(Admin admin, String app, long offset) throws Exception {
        admin.deleteRecords(Map.of(changelog(app), RecordsToDelete.beforeOffset(offset)))
                .all()
                .get();
    }

    private static long endOffset(Admin admin, String app) throws Exception {
        return admin.listOffsets(Map.of(changelog(app), OffsetSpec.latest()))
                .all()
                .get()
                .get(changelog(app))
                .offset();
    }
}
