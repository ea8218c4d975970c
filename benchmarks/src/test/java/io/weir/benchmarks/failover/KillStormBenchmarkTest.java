package io.weir.benchmarks.failover;

import io.weir.streams.test.kafka.ExternalKafkaBroker;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kill storm's options, its report, and the timeline of a restart read from an instance's log, with
 * no broker: the storm itself runs in the benchmark (see its class docs for how).
 */
class KillStormBenchmarkTest {

    @Test
    void takesTheStormsOptionsBesidesTheFailoverOnesAndRefusesOthers() {
        Map<String, String> options = KillStormBenchmark.parse(
                "--kills",
                "3",
                "--seed",
                "7",
                "--min-gap",
                "1.5",
                "--max-gap",
                "4",
                "--keys",
                "20000",
                "--engines",
                "weir");
        assertEquals(
                Map.of(
                        "--kills",
                        "3",
                        "--seed",
                        "7",
                        "--min-gap",
                        "1.5",
                        "--max-gap",
                        "4",
                        "--keys",
                        "20000",
                        "--engines",
                        "weir"),
                options);
        assertThrows(IllegalArgumentException.class, () -> KillStormBenchmark.parse("--kill", "3"));
        assertThrows(IllegalArgumentException.class, () -> KillStormBenchmark.parse("--kills"));
    }

    @Test
    void reportsPerEngineTheMediansAndMaximaOverEveryKillAndOneRestartsTimeline() {
        String report;
        try (ExternalKafkaBroker broker = ExternalKafkaBroker.at("localhost:9");
                KillStormBenchmark bench = new KillStormBenchmark(
                        broker, KillStormBenchmark.parse("--kills", "2", "--min-gap", "1.5", "--runs", "2"))) {
            report = bench.report(
                    "the command",
                    List.of(
                            new KillStormBenchmark.StormRun(
                                    "weir",
                                    List.of(
                                            new KillStormBenchmark.KillOutcome("instance-0", 1.0, 4.0, 5.0, 1),
                                            new KillStormBenchmark.KillOutcome("instance-2", 0.5, 3.0, 3.5, 0)),
                                    2.0,
                                    20.0,
                                    "instance-0, kill 1 of 2: the weir timeline\n"),
                            new KillStormBenchmark.StormRun(
                                    "kafka-streams",
                                    List.of(
                                            new KillStormBenchmark.KillOutcome("instance-1", 2.0, 6.0, 7.0, 2),
                                            new KillStormBenchmark.KillOutcome("instance-0", 3.0, 5.0, 9.0, 1)),
                                    3.0,
                                    70.0,
                                    "instance-1, kill 1 of 2: the first kafka-streams timeline\n"),
                            new KillStormBenchmark.StormRun(
                                    "weir",
                                    List.of(
                                            new KillStormBenchmark.KillOutcome("instance-1", 1.0, 4.5, 4.5, 2),
                                            new KillStormBenchmark.KillOutcome("instance-1", 1.0, 8.0, 8.5, 1)),
                                    4.0,
                                    30.0,
                                    ""),
                            new KillStormBenchmark.StormRun(
                                    "kafka-streams",
                                    List.of(
                                            new KillStormBenchmark.KillOutcome("instance-2", 2.0, 6.0, 7.0, 1),
                                            new KillStormBenchmark.KillOutcome("instance-0", 3.0, 5.0, 9.0, 1)),
                                    5.0,
                                    80.0,
                                    "instance-2, kill 1 of 2: the second kafka-streams timeline\n")));
        }
        System.out.print(report);
        assertTrue(report.contains("2 kills -9 per run, 1.5 to 20 s apart"), report);
        assertTrue(report.contains("\nthe command\n"), report);
        assertTrue(report.contains("| weir | 4 | 4.3, 8.0 | 4.8, 8.5 | 1.0, 2 | 3.0 | 25.0 |"), report);
        assertTrue(report.contains("| kafka-streams | 4 | 5.5, 6.0 | 8.0, 9.0 | 1.0, 2 | 4.0 | 75.0 |"), report);
        assertTrue(report.contains("The timeline of one restart, weir: instance-0, kill 1 of 2: the weir timeline"));
        assertTrue(report.contains("the first kafka-streams timeline"), report);
        assertFalse(report.contains("the second kafka-streams timeline"), report);
    }

    @Test
    void aRestartsTimelineRunsFromTheProcessStartToTheFirstOutputWithWhereTheSecondsWent() {
        RestartTimeline log = RestartTimeline.parse(List.of(
                "2026-01-01 00:00:00.500 INFO  i.w.s.WeirStreams - before the kill",
                "EVENT 2026-01-01T00:00:01.400Z jvm started 300 ms ago",
                "2026-01-01 00:00:02.000 INFO  i.w.s.WeirStreams - Prepared the topics of application a in 100 ms",
                "EVENT 2026-01-01T00:00:01.600Z new WeirStreams",
                "EVENT 2026-01-01T00:00:01.900Z start()",
                "\tat some.Class.method(Class.java:1)",
                "EVENT 2026-01-01T00:00:01.901Z state REBALANCING",
                "EVENT 2026-01-01T00:00:03.000Z state RUNNING",
                "2026-01-01 00:00:09.000 INFO  i.w.s.WeirStreams - after the output"));
        Instant started = Instant.parse("2026-01-01T00:00:01Z");
        assertEquals(
                Instant.parse("2026-01-01T00:00:03Z"),
                log.event("state RUNNING", started).orElseThrow());

        String timeline = log.restart(
                Instant.parse("2026-01-01T00:00:00.800Z"), started, Instant.parse("2026-01-01T00:00:03.500Z"), 4);

        assertEquals("""
                from the process's start, JVM up 0.40 s, topology built 0.60 s, start() 0.90 s, RUNNING 2.00 s, \
                committed output on partition 4 2.50 s
                ```
                  -0.200 s  kill -9
                  +0.000 s  process started (restart())
                  +0.400 s  EVENT jvm started 300 ms ago
                  +0.600 s  EVENT new WeirStreams
                  +0.900 s  EVENT start()
                  +0.901 s  EVENT state REBALANCING
                  +1.000 s  INFO  i.w.s.WeirStreams - Prepared the topics of application a in 100 ms
                  +2.000 s  EVENT state RUNNING
                  +2.500 s  first committed output on partition 4 after the kill
                ```
                """, timeline);
    }

    @Test
    void aRestartWhoseTasksRanElsewhereFirstShowsItsLinesUntilItRuns() {
        RestartTimeline log = RestartTimeline.parse(List.of(
                "EVENT 2026-01-01T00:00:01.400Z jvm started 300 ms ago",
                "EVENT 2026-01-01T00:00:01.900Z start()",
                "EVENT 2026-01-01T00:00:05.000Z state RUNNING",
                "EVENT 2026-01-01T00:00:06.000Z state REBALANCING"));

        String timeline = log.restart(
                Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:00:01Z"),
                Instant.parse("2026-01-01T00:00:03Z"),
                2);

        assertEquals("""
                from the process's start, JVM up 0.40 s, topology built -, start() 0.90 s, RUNNING 4.00 s, \
                committed output on partition 2 2.00 s (before RUNNING: another instance ran its tasks)
                ```
                  -1.000 s  kill -9
                  +0.000 s  process started (restart())
                  +0.400 s  EVENT jvm started 300 ms ago
                  +0.900 s  EVENT start()
                  +2.000 s  first committed output on partition 2 after the kill
                  +4.000 s  EVENT state RUNNING
                ```
                """, timeline);
    }
}
