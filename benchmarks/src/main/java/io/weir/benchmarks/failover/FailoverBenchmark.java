package io.weir.benchmarks.failover;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.joins.JoinBenchmark;
import io.weir.benchmarks.runtime.StandaloneBroker;
import io.weir.streams.test.kafka.KafkaBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Failover on a real broker: three instances of a count per key (a store of {@code --keys} keys, a
 * million by default), each in a JVM of its own, exactly-once, one standby copy per task, static
 * membership, a 10 s session timeout, under steady input; the same for Weir and for Kafka Streams 4.4, in
 * the same run. Each scenario is timed as the longest pause of any output partition: the time between
 * two arrivals of committed output on it, as a {@code read_committed} reader sees them (under steady
 * input a task commits output every 100 ms; a longer gap is a task standing still). Scenarios, in order,
 * on one application per engine:
 *
 * <ol>
 *   <li>{@code scale-out}: two instances run; a third starts.
 *   <li>{@code kill-restart}: {@code kill -9} of one instance and an immediate restart on its state
 *       directory (a crash-looping pod); also timed from the restart.
 *   <li>{@code kill}: {@code kill -9} of one instance, no restart: the others take its tasks once its
 *       session times out. Then it restarts, untimed.
 *   <li>{@code rolling}: each instance in turn closes cleanly (SIGTERM), leaving the group (its tasks
 *       move to their standby copies), and restarts, once the previous one runs again; its tasks come
 *       back to it once it caught up.
 * </ol>
 *
 * Before each fault, and before a scenario ends, every instance runs its share of the tasks, every
 * output partition has output, and the standby copies are caught up; a scenario's pause is measured
 * over all of that, so a task that moves later (after a warm-up) counts. Also reported: how long until
 * then ("balanced after"), and the changelog records the instances replayed during the scenario. With
 * {@code --runs n} all of it runs n times, the engines taking turns, and the report gives medians.
 */
public final class FailoverBenchmark implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FailoverBenchmark.class);

    /**
     * One scenario's outcome for one engine: the longest output pause, the same from the restart (or -1),
     * how long until the instances ran again with every task, balanced, and the changelog records replayed.
     */
    record Outcome(
            String scenario,
            String engine,
            double pauseSeconds,
            double fromRestartSeconds,
            double balancedSeconds,
            long replayed) {}

    private final FailoverRig rig;

    FailoverBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.rig = new FailoverRig(broker, options, 1_000_000, "failover");
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, FailoverBenchmark::parse);
        String command = CommandLine.of(FailoverBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                FailoverBenchmark bench = new FailoverBenchmark(broker, options)) {
            List<Outcome> outcomes = bench.run();
            System.out.print(bench.report(command, outcomes));
        }
    }

    static Map<String, String> parse(String... args) {
        return JoinBenchmark.options(args, FailoverRig.OPTIONS);
    }

    /** Every scenario on every engine, {@code --runs} times, the engines taking turns. */
    List<Outcome> run() throws InterruptedException, TimeoutException {
        List<Outcome> all = new ArrayList<>();
        for (int r = 0; r < rig.runs(); r++) {
            for (String engine : rig.engines()) {
                all.addAll(runEngine(engine));
            }
        }
        return all;
    }

    private List<Outcome> runEngine(String engine) throws InterruptedException, TimeoutException {
        FailoverRig.App app = rig.app("failover", engine);
        List<Outcome> outcomes = new ArrayList<>();
        List<InstanceProcess> instances = new ArrayList<>();
        try (OutputTimeline timeline = new OutputTimeline(rig.bootstrap(), app.output(), rig.partitions())) {
            for (int i = 0; i < 2; i++) {
                instances.add(app.start(i));
            }
            log.info("{}: two instances load {} keys", engine, rig.keys());
            FailoverRig.await(
                    engine + " loads the keys", () -> timeline.records() >= rig.keys() && app.ready(instances));
            try (SteadyInput steady = new SteadyInput(rig.bootstrap(), app.input(), rig.keys(), rig.rate())) {
                FailoverRig.await(engine + " runs under steady input", () -> app.settled(instances, timeline));

                long replayed = replayed(instances);
                long from = System.nanoTime();
                instances.add(app.start(2));
                long calm = app.awaitCalm(engine + " scales out", instances, timeline);
                outcomes.add(outcome("scale-out", engine, timeline, from, -1, calm, replayed(instances) - replayed));

                InstanceProcess victim = instances.get(0);
                replayed = replayed(instances);
                from = System.nanoTime();
                victim.kill();
                log.info("{}: killed {}; restarting it", engine, victim.name());
                long restart = System.nanoTime();
                victim.restart();
                calm = app.awaitCalm(engine + " recovers from kill -9 and restart", instances, timeline);
                outcomes.add(
                        outcome("kill-restart", engine, timeline, from, restart, calm, replayed(instances) - replayed));

                victim = instances.get(1);
                replayed = replayed(instances);
                from = System.nanoTime();
                victim.kill();
                List<InstanceProcess> survivors = new ArrayList<>(instances);
                survivors.remove(victim);
                calm = app.awaitCalm(engine + " recovers from kill -9", survivors, timeline);
                outcomes.add(outcome("kill", engine, timeline, from, -1, calm, replayed(instances) - replayed));
                victim.restart();
                app.awaitCalm(engine + " takes the killed instance back", instances, timeline);

                replayed = replayed(instances);
                from = System.nanoTime();
                for (InstanceProcess instance : instances) {
                    instance.stop();
                    instance.restart();
                    FailoverRig.await(
                            engine + " restarts " + instance.name(),
                            () -> instance.status().running());
                }
                calm = app.awaitCalm(engine + " finishes the rolling restart", instances, timeline);
                outcomes.add(outcome("rolling", engine, timeline, from, -1, calm, replayed(instances) - replayed));
                steady.check();
            }
        } finally {
            for (InstanceProcess instance : instances) {
                instance.close();
            }
        }
        return outcomes;
    }

    private static long replayed(List<InstanceProcess> instances) {
        return instances.stream().mapToLong(InstanceProcess::restored).sum();
    }

    private static Outcome outcome(
            String scenario,
            String engine,
            OutputTimeline timeline,
            long from,
            long restart,
            long calm,
            long replayed) {
        OutputTimeline.Pause pause = timeline.longestPause(from, System.nanoTime());
        double fromRestart = restart < 0 ? -1 : Math.max(0, (pause.endNanos() - restart) / 1e9);
        log.info(
                "{} {}: longest pause {} s (partition {}, output again at {}), {} records replayed",
                engine,
                scenario,
                String.format(Locale.ROOT, "%.1f", pause.seconds()),
                pause.partition(),
                java.time.Instant.now().minusNanos(System.nanoTime() - pause.endNanos()),
                replayed);
        return new Outcome(scenario, engine, pause.seconds(), fromRestart, (calm - from) / 1e9, replayed);
    }

    /**
     * A table: one row per scenario, the engines side by side (medians over the runs), and the ratio of
     * the median pauses.
     */
    String report(String command, List<Outcome> outcomes) {
        Map<String, Map<String, List<Outcome>>> byScenario = new LinkedHashMap<>();
        outcomes.forEach(o -> byScenario
                .computeIfAbsent(o.scenario(), s -> new LinkedHashMap<>())
                .computeIfAbsent(o.engine(), e -> new ArrayList<>())
                .add(o));
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "failover: 3 instances (child JVMs), exactly-once, 1 standby, static membership, session 10 s, "
                        + "%,d keys, %,d records/s, %d partitions; medians of %d run(s)%n%s%n"
                        + "| scenario | Weir longest pause, s | Kafka Streams 4.4, s | KS / Weir | balanced after, s "
                        + "(Weir, KS) | records replayed (Weir, KS) |%n|---|---|---|---|---|---|%n",
                rig.keys(),
                rig.rate(),
                rig.partitions(),
                rig.runs(),
                command));
        byScenario.forEach((scenario, row) -> {
            List<Outcome> weir = row.getOrDefault("weir", List.of());
            List<Outcome> ks = row.getOrDefault("kafka-streams", List.of());
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s, %s | %s, %s |%n",
                    scenario,
                    pause(weir),
                    pause(ks),
                    weir.isEmpty() || ks.isEmpty()
                            ? "-"
                            : String.format(
                                    Locale.ROOT,
                                    "%.1fx",
                                    FailoverRig.median(ks, Outcome::pauseSeconds)
                                            / Math.max(0.001, FailoverRig.median(weir, Outcome::pauseSeconds))),
                    number(weir, Outcome::balancedSeconds, "%.1f"),
                    number(ks, Outcome::balancedSeconds, "%.1f"),
                    number(weir, o -> o.replayed(), "%,.0f"),
                    number(ks, o -> o.replayed(), "%,.0f")));
        });
        return text.toString();
    }

    private static String number(List<Outcome> runs, ToDoubleFunction<Outcome> value, String format) {
        return runs.isEmpty() ? "-" : String.format(Locale.ROOT, format, FailoverRig.median(runs, value));
    }

    /** The median pause, with the median from the restart where there is one, and every run's pause. */
    private static String pause(List<Outcome> runs) {
        if (runs.isEmpty()) {
            return "-";
        }
        String each = runs.size() == 1
                ? ""
                : runs.stream()
                        .map(o -> String.format(Locale.ROOT, "%.1f", o.pauseSeconds()))
                        .collect(Collectors.joining(" ", " [", "]"));
        double fromRestart = FailoverRig.median(runs, Outcome::fromRestartSeconds);
        return fromRestart < 0
                ? String.format(Locale.ROOT, "%.1f%s", FailoverRig.median(runs, Outcome::pauseSeconds), each)
                : String.format(
                        Locale.ROOT,
                        "%.1f (%.1f after the restart)%s",
                        FailoverRig.median(runs, Outcome::pauseSeconds),
                        fromRestart,
                        each);
    }

    @Override
    public void close() {
        rig.close();
    }
}
