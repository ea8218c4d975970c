package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rolling upgrade on a real broker, {@code upgrade.from=5} standing in for the previous release: an
 * instance held at version 5 writes exactly the group protocol messages of releases before version
 * probing. Instances of both releases share the group, tasks with window state move between them while
 * records flow, the group switches to the newer version once the last older member is gone, and the
 * committed output is exact.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RollingUpgradeTest {

    private static final int PARTITIONS = 4;
    private static final Set<String> ALL_TASKS = Set.of("0_0", "0_1", "0_2", "0_3");
    private static final String PREVIOUS_RELEASE = "5";

    private static WeirStreams instance(KafkaBroker broker, Path dir, boolean previousRelease) {
        Map<String, Object> extra = new HashMap<>();
        if (previousRelease) {
            extra.put(StreamsConfig.UPGRADE_FROM, PREVIOUS_RELEASE);
        }
        return WindowedCountApp.instance(
                broker, "upgrade", "upgrade-in", "upgrade-out", dir, StreamsConfig.EXACTLY_ONCE, extra);
    }

    private static Set<String> tasks(WeirStreams instance) {
        Set<String> tasks = new HashSet<>();
        for (ThreadMetadata thread : instance.localThreads()) {
            tasks.addAll(thread.activeTasks());
        }
        return tasks;
    }

    /** Whether these instances, and only they, run every task, each once. */
    private static boolean runAllTasks(WeirStreams... instances) {
        Set<String> all = new HashSet<>();
        int count = 0;
        for (WeirStreams instance : instances) {
            Set<String> own = tasks(instance);
            if (own.isEmpty() || instance.state() != WeirStreams.State.RUNNING) {
                return false;
            }
            all.addAll(own);
            count += own.size();
        }
        return all.equals(ALL_TASKS) && count == ALL_TASKS.size();
    }

    /** The group protocol version each thread of {@code instance} says its group uses. */
    private static Set<Double> versionInUse(WeirStreams instance) {
        Set<Double> versions = new HashSet<>();
        for (WeirMetric metric : instance.allMetrics()) {
            if (metric.name().equals(WeirMetrics.GROUP_PROTOCOL_VERSION)) {
                versions.add(metric.value());
            }
        }
        return versions;
    }

    private static List<WeirStreams.State> watch(WeirStreams instance) {
        List<WeirStreams.State> states = new CopyOnWriteArrayList<>();
        instance.setStateListener((now, before) -> states.add(now));
        return states;
    }

    @Test
    void instancesOfThePreviousReleaseAndThisOneHandTasksBackAndForthAndTheGroupSwitchesOnceAllAreNew(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        broker.createTopic("upgrade-in", PARTITIONS);
        broker.createTopic("upgrade-out", PARTITIONS);
        CountInput input = new CountInput(broker, "upgrade-in", PARTITIONS);
        Map<String, Long> expected = new HashMap<>();
        Function<Integer, Map<String, Long>> chunk =
                n -> input.produce(4_000, n * 100_000L, 100_000, CountInput.randomKeys(40, n));
        Set<Double> previous = Set.of((double) Integer.parseInt(PREVIOUS_RELEASE));
        Set<Double> latest = Set.of(6.0);

        WeirStreams oldA = instance(broker, dirA, true);
        WeirStreams oldB = instance(broker, dirB, true);
        oldA.start();
        oldB.start();
        expected.putAll(chunk.apply(0));
        await().atMost(Duration.ofSeconds(60)).until(() -> runAllTasks(oldA, oldB));
        assertEquals(previous, versionInUse(oldA));

        // First bounce: A comes back on this release, next to B of the previous one; it takes tasks from B.
        assertTrue(oldA.close(Duration.ofSeconds(60)));
        chunk.apply(1).forEach((k, v) -> expected.merge(k, v, Long::sum));
        try (WeirStreams newA = instance(broker, dirA, false)) {
            List<WeirStreams.State> statesOfA = watch(newA);
            newA.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> runAllTasks(newA, oldB));
            assertEquals(previous, versionInUse(newA), "a member of the previous release holds the group at 5");
            assertEquals(previous, versionInUse(oldB));

            // Second bounce: B comes back on this release; its tasks go to A and back.
            assertTrue(oldB.close(Duration.ofSeconds(60)));
            chunk.apply(2).forEach((k, v) -> expected.merge(k, v, Long::sum));
            await().atMost(Duration.ofSeconds(60)).until(() -> tasks(newA).equals(ALL_TASKS));
            try (WeirStreams newB = instance(broker, dirB, false)) {
                newB.start();
                await().atMost(Duration.ofSeconds(90)).until(() -> runAllTasks(newA, newB));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> versionInUse(newA).equals(latest)
                                && versionInUse(newB).equals(latest));
                chunk.apply(3).forEach((k, v) -> expected.merge(k, v, Long::sum));
                input.flush(1_000_000);
                await().atMost(Duration.ofMinutes(2))
                        .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "upgrade-out"));
                assertOneOnTimePaneEach(CommittedPanes.read(broker, "upgrade-out"));
                assertFalse(statesOfA.contains(WeirStreams.State.ERROR), "A never failed: " + statesOfA);
                assertFalse(
                        statesOfA.contains(WeirStreams.State.NOT_RUNNING),
                        "A switched without a restart: " + statesOfA);
            }
        }
    }
}
