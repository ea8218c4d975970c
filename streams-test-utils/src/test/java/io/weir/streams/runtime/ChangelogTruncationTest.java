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
 * A store whose changelog no longer holds the offset the store was restored up to (the records after it
 * were deleted, by retention or by an operator) is wiped and restored from what the changelog still has,
 * so it holds what any instance restoring from the changelog would hold. Skipping to the changelog's end
 * would keep the stale local state; replaying the rest onto it would keep stale values (and deleted keys)
 * whose newer writes were among the deleted records.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ChangelogTruncationTest {

    private static final String APP = "truncated";
    private static final String IN = "truncated-in";
    private static final String OUT = "truncated-out";
    private static final TopicPartition CHANGELOG = new TopicPartition(APP + "-counts-changelog", 0);
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4");

    @Test
    void aStoreBehindTheChangelogsStartIsWipedAndRestoredFromWhatIsLeft(KafkaBroker broker, @TempDir Path first,
                                                                         @TempDir Path second) throws Exception {
        broker.createTopic(IN, 1);
        broker.createTopic(OUT, 1);
        CountInput input = new CountInput(broker, IN, 1);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            // One record per key, counted by an instance on `first`, which closes cleanly: its store holds the
            // changelog up to its end.
            countOneRecordPerKey(broker, input, first, 1_000);
            long firstStoreOffset = endOffset(admin);

            // The same keys counted again by an instance on `second` (restored from the changelog: count 2).
            countOneRecordPerKey(broker, input, second, 2_000);

            // The changelog loses its records before firstStoreOffset + 1: one of `second`'s writes is gone, and
            // `first`'s store is now behind the changelog's start.
            admin.deleteRecords(Map.of(CHANGELOG, RecordsToDelete.beforeOffset(firstStoreOffset + 1))).all().get();

            KEYS.forEach(k -> input.send(0, 3_000, k));
            input.flush(WindowedCountApp.WINDOW * 2);
            try (WeirStreams app = instance(broker, first)) {
                app.start();
                await().atMost(Duration.ofSeconds(90)).until(() -> CommittedPanes.read(broker, OUT).size() == KEYS.size());
            }
        }
        List<Long> counts = CommittedPanes.finalCounts(CommittedPanes.read(broker, OUT)).values().stream().sorted().toList();
        assertEquals(List.of(1L, 3L, 3L, 3L, 3L), counts, "four keys restored from the changelog's count of 2 (plus 1); "
                + "the key whose last write was deleted starts over, as on any other instance, not from the stale local count");
    }

    private static void countOneRecordPerKey(KafkaBroker broker, CountInput input, Path stateDir, long atMs) {
        KEYS.forEach(k -> input.send(0, atMs, k));
        try (WeirStreams app = instance(broker, stateDir)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    app.metrics().getOrDefault("source:" + IN + "/records-consumed", 0L) == KEYS.size());
            app.close(Duration.ofSeconds(30));
        }
    }

    private static WeirStreams instance(KafkaBroker broker, Path stateDir) {
        return WindowedCountApp.instance(broker, APP, IN, OUT, stateDir, StreamsConfig.EXACTLY_ONCE);
    }

    private static long endOffset(Admin admin) throws Exception {
        return admin.listOffsets(Map.of(CHANGELOG, OffsetSpec.latest())).all().get().get(CHANGELOG).offset();
    }
}
