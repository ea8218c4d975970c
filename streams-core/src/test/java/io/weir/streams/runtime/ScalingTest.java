package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several threads per instance, and instances joining and leaving while records flow. */
@ExtendWith(KafkaBrokerExtension.class)
class ScalingTest {

    private static final int PARTITIONS = 6;
    private static final Set<String> ALL_TASKS = Set.of("0_0", "0_1", "0_2", "0_3", "0_4", "0_5");

    private static WeirStreams instance(KafkaBroker broker, String app, Path dir, int threads) {
        return WindowedCountApp.instance(
                broker,
                app,
                app + "-in",
                app + "-out",
                dir,
                StreamsConfig.EXACTLY_ONCE,
                Map.of(StreamsConfig.NUM_STREAM_THREADS, threads));
    }

    /** The tasks of every thread of these instances; fails if two threads run the same task. */
    private static Set<String> runningTasks(List<WeirStreams> instances) {
        Set<String> all = new HashSet<>();
        for (WeirStreams instance : instances) {
            for (ThreadMetadata thread : instance.localThreads()) {
                for (String task : thread.activeTasks()) {
                    assertTrue(all.add(task), "task " + task + " runs twice");
                }
            }
        }
        return all;
    }

    @Test
    void theThreadsOfOneInstanceShareItsTasks(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("threads-in", PARTITIONS);
        broker.createTopic("threads-out", PARTITIONS);
        CountInput input = new CountInput(broker, "threads-in", PARTITIONS);
        Map<String, Long> expected = input.produce(6_000, 0, 60_000, CountInput.randomKeys(30, 4));
        try (WeirStreams app = instance(broker, "threads", dir, 3)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> app.state() == WeirStreams.State.RUNNING
                            && runningTasks(List.of(app)).equals(ALL_TASKS));
            List<ThreadMetadata> threads = app.localThreads();
            assertEquals(3, threads.size());
            threads.forEach(
                    t -> assertEquals(2, t.activeTasks().size(), "two tasks for each of 3 threads: " + threads));
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "threads-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "threads-out"));
        }
    }

    /**
     * B joins while A works through a backlog, then A leaves while B works through the next one: two
     * rebalances with records in flight, and the committed output stays exact.
     */
    @Test
    void instancesJoiningAndLeavingMidStreamKeepTheOutputExact(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        broker.createTopic("rebalance-in", PARTITIONS);
        broker.createTopic("rebalance-out", PARTITIONS);
        CountInput input = new CountInput(broker, "rebalance-in", PARTITIONS);
        Map<String, Long> expected = new HashMap<>();
        Function<Integer, Map<String, Long>> chunk =
                n -> input.produce(20_000, n * 100_000L, 100_000, CountInput.randomKeys(50, n));
        try (WeirStreams a = instance(broker, "rebalance", dirA, 2);
                WeirStreams b = instance(broker, "rebalance", dirB, 1)) {
            a.start();
            expected.putAll(chunk.apply(0));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().getOrDefault("source:rebalance-in/records-consumed", 0L) > 0);
            chunk.apply(1).forEach((k, v) -> expected.merge(k, v, Long::sum));
            b.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> !runningTasks(List.of(b)).isEmpty()
                            && runningTasks(List.of(a, b)).equals(ALL_TASKS));
            chunk.apply(2).forEach((k, v) -> expected.merge(k, v, Long::sum));
            CompletableFuture<Boolean> aLeaves = CompletableFuture.supplyAsync(() -> a.close(Duration.ofSeconds(60)));
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> aLeaves.isDone() && runningTasks(List.of(b)).equals(ALL_TASKS));
            assertTrue(aLeaves.join(), "A stopped cleanly");
            input.flush(1_000_000);
            await().atMost(Duration.ofMinutes(2))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "rebalance-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "rebalance-out"));
        }
    }
}
