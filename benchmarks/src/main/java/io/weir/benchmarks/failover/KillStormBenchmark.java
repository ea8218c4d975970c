package io.weir.benchmarks.failover;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.joins.JoinBenchmark;
import io.weir.benchmarks.runtime.StandaloneBroker;
import io.weir.streams.test.kafka.KafkaBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * A kill storm on a real broker: three instances of {@link FailoverBenchmark}'s application (a count per
 * key, {@code --keys} keys, 100,000 by default; exactly-once, one standby copy per task, static membership,
 * a 10 s session timeout), each in a JVM of its own, under steady input, output read {@code
 * read_committed}; the same for Weir and for Kafka Streams 4.4, in the same run. Once the instances are
 * calm (each runs its share of the tasks, every output partition has output, the standby copies are caught
 * up, for five seconds), {@code --kills} times (10 by default) an instance drawn at random among those whose
 * process is alive (one still starting included) is killed with {@code kill -9} and restarted on its state
 * directory after a random 0–3 s; the next kill comes a random {@code --min-gap} to {@code --max-gap}
 * seconds (2 to 20) after the previous one. The draws come from {@code --seed} (1 by default) plus the run's
 * number, so both engines meet the same storm. Measured per kill, once the instances are calm again after
 * the storm:
 *
 * <ul>
 *   <li><b>output again after the restart</b>: from the restart (when the benchmark launched the killed
 *       instance's new process) until the last of the output partitions that were flowing at the kill (had
 *       committed output in the second before it) had committed output again: the latest of their first
 *       arrivals after the kill, as a {@code read_committed} reader saw them; 0 if that came before the
 *       restart (the kill paused nothing). If the restarted process is killed again before that, the time
 *       runs on through that kill, which itself finds those partitions paused and leaves them out.
 *   <li><b>longest pause</b>: the longest time between two arrivals of committed output on any of those
 *       partitions (one paused before the kill counts for an earlier kill), the first counted from the last
 *       arrival before the kill, until the next kill or, if later, the output again; after the last kill,
 *       until the instances were calm again.
 *   <li><b>rebalances</b>: the most times any survivor entered the state {@code REBALANCING} from the kill
 *       until the next kill (after the last, until calm again), as their status lines (one a second) report;
 *       survivors are the other instances whose process had started its streams at the kill and still ran
 *       at the end, so a restarting instance's own start is not counted.
 * </ul>
 *
 * Then a <b>fresh instance</b>: one instance closes cleanly (leaving the group, its tasks move to their
 * standby copies), and a new one starts on a new, empty state directory; measured from its process's start
 * until it entered RUNNING (its {@code EVENT} line), and until it reported its share of the tasks (at least
 * a third of the partitions; one status line a second). The report gives, per engine, the medians and
 * maxima over every kill of every run ({@code --runs n}, the engines taking turns), the medians of the fresh
 * instance's times, and the timeline of one restart: the kill whose output again was the median among
 * those whose restarted process was not killed again before its output (preferring those whose process was
 * RUNNING before it), with its instance's log lines from the process's start to the first committed output.
 */
public final class KillStormBenchmark implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KillStormBenchmark.class);
    private static final int INSTANCES = 3;
    private static final long MAX_RESTART_DELAY_MS = 3_000;
    /** A partition with committed output in the last second before a kill was flowing: a task ran it. */
    private static final Duration FLOWING = Duration.ofSeconds(1);

    private static final List<String> OPTIONS = Stream.concat(
                    FailoverRig.OPTIONS.stream(), Stream.of("--kills", "--seed", "--min-gap", "--max-gap"))
            .toList();

    /**
     * One kill's outcome: its victim, how long after the kill it restarted, its output again after the
     * restart, the longest pause in its window, and the survivors' rebalances in it (see the class docs).
     */
    record KillOutcome(
            String victim,
            double restartDelaySeconds,
            double outputAgainSeconds,
            double pauseSeconds,
            long rebalances) {}

    /**
     * One storm on one engine: its kills, the fresh instance's time to RUNNING and to its share of the tasks,
     * and the timeline of one restart (empty if no restart had output before its process was killed again).
     */
    record StormRun(
            String engine,
            List<KillOutcome> kills,
            double freshRunningSeconds,
            double freshShareSeconds,
            String timeline) {}

    /** A survivor as a kill found it: its process, and how often that process had entered REBALANCING. */
    private record Seen(long pid, long rebalances) {}

    /** A kill, when the partitions it paused had output again, and its outcome. */
    private record Measured(Kill kill, OutputTimeline.Arrival again, KillOutcome outcome) {}

    /** The fresh instance's time to RUNNING and to its share of the tasks. */
    private record Fresh(double runningSeconds, double shareSeconds) {}

    /** A kill as the storm made it; measured once the storm is over. */
    private static final class Kill {
        final int number;
        final InstanceProcess victim;
        final long killedNanos;
        final Set<Integer> flowing;
        final Map<InstanceProcess, Seen> survivors = new HashMap<>();
        long restartedNanos = -1;
        long endNanos = -1;
        long rebalances;

        Kill(int number, InstanceProcess victim, List<InstanceProcess> instances, OutputTimeline timeline) {
            this.number = number;
            this.victim = victim;
            for (InstanceProcess instance : instances) {
                if (instance != victim && instance.reported()) {
                    survivors.put(
                            instance, new Seen(instance.pid(), instance.status().rebalances()));
                }
            }
            this.flowing = timeline.flowing(FLOWING);
            this.killedNanos = System.nanoTime();
        }

        /** Ends the kill's window: the survivors' rebalances since the kill. */
        void end() {
            endNanos = System.nanoTime();
            survivors.forEach((instance, seen) -> {
                if (instance.reported() && instance.pid() == seen.pid()) {
                    rebalances = Math.max(rebalances, instance.status().rebalances() - seen.rebalances());
                }
            });
        }
    }

    private final FailoverRig rig;
    private final int kills;
    private final long seed;
    private final long minGapMillis;
    private final long maxGapMillis;

    KillStormBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.kills = Integer.parseInt(options.getOrDefault("--kills", "10"));
        if (kills < 1) {
            throw new IllegalArgumentException("--kills must be at least 1");
        }
        this.seed = Long.parseLong(options.getOrDefault("--seed", "1"));
        this.minGapMillis = Math.round(Double.parseDouble(options.getOrDefault("--min-gap", "2")) * 1000);
        this.maxGapMillis = Math.round(Double.parseDouble(options.getOrDefault("--max-gap", "20")) * 1000);
        if (minGapMillis > maxGapMillis) {
            throw new IllegalArgumentException("--min-gap is more than --max-gap");
        }
        this.rig = new FailoverRig(broker, options, 100_000, "killstorm");
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, KillStormBenchmark::parse);
        String command = CommandLine.of(KillStormBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                KillStormBenchmark bench = new KillStormBenchmark(broker, options)) {
            List<StormRun> runs = bench.run();
            System.out.print(bench.report(command, runs));
        }
    }

    static Map<String, String> parse(String... args) {
        return JoinBenchmark.options(args, OPTIONS);
    }

    /** A storm on every engine, {@code --runs} times, the engines taking turns. */
    List<StormRun> run() throws InterruptedException, TimeoutException {
        List<StormRun> all = new ArrayList<>();
        for (int r = 0; r < rig.runs(); r++) {
            for (String engine : rig.engines()) {
                all.add(runEngine(engine, new SplittableRandom(seed + r)));
            }
        }
        return all;
    }

    private StormRun runEngine(String engine, SplittableRandom random) throws InterruptedException, TimeoutException {
        FailoverRig.App app = rig.app("killstorm", engine);
        List<InstanceProcess> instances = new ArrayList<>();
        try (OutputTimeline timeline = new OutputTimeline(rig.bootstrap(), app.output(), rig.partitions())) {
            for (int i = 0; i < INSTANCES; i++) {
                instances.add(app.start(i));
            }
            log.info("{}: {} instances load {} keys", engine, INSTANCES, rig.keys());
            FailoverRig.await(
                    engine + " loads the keys", () -> timeline.records() >= rig.keys() && app.ready(instances));
            try (SteadyInput steady = new SteadyInput(rig.bootstrap(), app.input(), rig.keys(), rig.rate())) {
                app.awaitCalm(engine + " runs under steady input", instances, timeline);
                List<Kill> storm = storm(engine, instances, timeline, random);
                app.awaitCalm(engine + " recovers from the storm", instances, timeline);
                storm.get(storm.size() - 1).end();
                List<Measured> measured = new ArrayList<>();
                for (Kill kill : storm) {
                    measured.add(measure(engine, kill, timeline));
                }
                Fresh fresh = fresh(app, instances);
                steady.check();
                return new StormRun(
                        engine,
                        measured.stream().map(Measured::outcome).toList(),
                        fresh.runningSeconds(),
                        fresh.shareSeconds(),
                        restartTimeline(measured));
            }
        } finally {
            for (InstanceProcess instance : instances) {
                instance.close();
            }
        }
    }

    /**
     * The storm: {@code --kills} kills, each of an instance drawn among the live ones, each victim restarted
     * after its delay, the storm over once the last victim restarted.
     */
    private List<Kill> storm(
            String engine, List<InstanceProcess> instances, OutputTimeline timeline, SplittableRandom random)
            throws InterruptedException {
        List<Kill> storm = new ArrayList<>();
        Map<Kill, Long> restarts = new HashMap<>();
        long nextKill = System.nanoTime();
        while (storm.size() < kills || !restarts.isEmpty()) {
            Map.Entry<Kill, Long> restart = restarts.entrySet().stream()
                    .min(Map.Entry.comparingByValue())
                    .orElse(null);
            if (storm.size() < kills && (restart == null || nextKill < restart.getValue())) {
                sleepUntil(nextKill);
                List<InstanceProcess> alive =
                        instances.stream().filter(InstanceProcess::alive).toList();
                if (alive.isEmpty()) {
                    if (restart == null) {
                        throw new IllegalStateException(engine + ": every instance died");
                    }
                    // Every instance is down (gaps shorter than the restart delays): the kill waits for a restart.
                    nextKill = restart.getValue();
                    continue;
                }
                InstanceProcess victim = alive.get(random.nextInt(alive.size()));
                if (!storm.isEmpty()) {
                    storm.get(storm.size() - 1).end();
                }
                Kill kill = new Kill(storm.size() + 1, victim, instances, timeline);
                victim.kill();
                long delay = random.nextLong(MAX_RESTART_DELAY_MS + 1);
                log.info("{} kill {}: kill -9 of {}, restart in {} ms", engine, kill.number, victim.name(), delay);
                storm.add(kill);
                restarts.put(kill, kill.killedNanos + TimeUnit.MILLISECONDS.toNanos(delay));
                nextKill = kill.killedNanos
                        + TimeUnit.MILLISECONDS.toNanos(random.nextLong(minGapMillis, maxGapMillis + 1));
            } else if (restart != null) {
                sleepUntil(restart.getValue());
                Kill kill = restart.getKey();
                restarts.remove(kill);
                kill.victim.restart();
                kill.restartedNanos = kill.victim.startedNanos();
            }
        }
        return storm;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private static Measured measure(String engine, Kill kill, OutputTimeline timeline) {
        OutputTimeline.Arrival again = timeline.resumed(kill.flowing, kill.killedNanos);
        OutputTimeline.Pause pause =
                timeline.longestPause(kill.flowing, kill.killedNanos, Math.max(kill.endNanos, again.nanos()));
        KillOutcome outcome = new KillOutcome(
                kill.victim.name(),
                (kill.restartedNanos - kill.killedNanos) / 1e9,
                Math.max(0, (again.nanos() - kill.restartedNanos) / 1e9),
                pause.seconds(),
                kill.rebalances);
        log.info(
                "{} kill {} of {}: restarted after {} s, output again {} s after the restart (partition {}), "
                        + "longest pause {} s (partition {}), {} rebalance(s)",
                engine,
                kill.number,
                outcome.victim(),
                String.format(Locale.ROOT, "%.1f", outcome.restartDelaySeconds()),
                String.format(Locale.ROOT, "%.1f", outcome.outputAgainSeconds()),
                again.partition(),
                String.format(Locale.ROOT, "%.1f", outcome.pauseSeconds()),
                pause.partition(),
                outcome.rebalances());
        return new Measured(kill, again, outcome);
    }

    /**
     * The timeline of the restart whose output again was the median among those with output again after the
     * restart and before their process was killed again, preferring those whose process entered RUNNING before
     * that output (it ran its tasks again, rather than another instance after its session expired); empty if
     * there was none.
     */
    private static String restartTimeline(List<Measured> storm) {
        List<Measured> restarts = new ArrayList<>();
        List<Measured> own = new ArrayList<>();
        for (int i = 0; i < storm.size(); i++) {
            Measured m = storm.get(i);
            boolean killedAgain = storm.subList(i + 1, storm.size()).stream()
                    .anyMatch(later -> later.kill().victim == m.kill().victim
                            && later.kill().killedNanos < m.again().nanos());
            if (m.again().nanos() > m.kill().restartedNanos && !killedAgain) {
                restarts.add(m);
                Instant again = RestartTimeline.wall(m.again().nanos());
                if (RestartTimeline.read(m.kill().victim.log())
                        .event("state RUNNING", RestartTimeline.wall(m.kill().restartedNanos))
                        .filter(again::isAfter)
                        .isPresent()) {
                    own.add(m);
                }
            }
        }
        List<Measured> candidates = own.isEmpty() ? restarts : own;
        if (candidates.isEmpty()) {
            return "";
        }
        candidates.sort(Comparator.comparingDouble(m -> m.outcome().outputAgainSeconds()));
        Measured median = candidates.get((candidates.size() - 1) / 2);
        Kill kill = median.kill();
        return String.format(
                        Locale.ROOT,
                        "%s, kill %d of %d (restarted %.1f s after its kill -9): ",
                        kill.victim.name(),
                        kill.number,
                        storm.size(),
                        median.outcome().restartDelaySeconds())
                + RestartTimeline.read(kill.victim.log())
                        .restart(
                                RestartTimeline.wall(kill.killedNanos),
                                RestartTimeline.wall(kill.restartedNanos),
                                RestartTimeline.wall(median.again().nanos()),
                                median.again().partition());
    }

    /**
     * The fresh instance: the first instance closes cleanly, and a new one starts on a new, empty state
     * directory; timed until it enters RUNNING and until it runs its share of the tasks.
     */
    private Fresh fresh(FailoverRig.App app, List<InstanceProcess> instances)
            throws InterruptedException, TimeoutException {
        InstanceProcess closed = instances.get(0);
        closed.stop();
        log.info("{}: closed {}; a fresh instance replaces it", app.engine(), closed.name());
        InstanceProcess fresh = app.start(instances.size());
        instances.add(fresh);
        FailoverRig.await(app.engine() + " runs a fresh instance with its share of the tasks", () -> {
            InstanceProcess.Status status = fresh.status();
            return status.running() && status.active() >= rig.partitions() / INSTANCES;
        });
        double share = (System.nanoTime() - fresh.startedNanos()) / 1e9;
        Instant started = RestartTimeline.wall(fresh.startedNanos());
        Instant running = RestartTimeline.read(fresh.log())
                .event("state RUNNING", started)
                .orElseThrow(() -> new IllegalStateException(fresh.name() + " runs but logged no RUNNING"));
        double toRunning = Duration.between(started, running).toNanos() / 1e9;
        log.info(
                "{}: the fresh instance was RUNNING after {} s, ran its share of the tasks after {} s",
                app.engine(),
                String.format(Locale.ROOT, "%.1f", toRunning),
                String.format(Locale.ROOT, "%.1f", share));
        return new Fresh(toRunning, share);
    }

    /**
     * A table, one row per engine: over every kill of every run, the median and the maximum of the output
     * again after the restart, of the longest pause and of the rebalances; the medians of the fresh
     * instance's times. Then the timeline of one restart per engine (from its first run that has one).
     */
    String report(String command, List<StormRun> runs) {
        Map<String, List<StormRun>> byEngine = new LinkedHashMap<>();
        runs.forEach(r ->
                byEngine.computeIfAbsent(r.engine(), e -> new ArrayList<>()).add(r));
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "kill storm: %d instances (child JVMs), exactly-once, 1 standby, static membership, session 10 s, "
                        + "%,d keys, %,d records/s, %d partitions; %d kills -9 per run, %s to %s s apart, each "
                        + "victim restarted after 0 to %.0f s (seed %d); %d run(s)%n%s%n"
                        + "| engine | kills | output again after the restart, s (median, max) | longest pause, s "
                        + "(median, max) | rebalances per kill (median, max) | fresh instance RUNNING after, s "
                        + "| fresh instance has its share after, s |%n|---|---|---|---|---|---|---|%n",
                INSTANCES,
                rig.keys(),
                rig.rate(),
                rig.partitions(),
                kills,
                seconds(minGapMillis),
                seconds(maxGapMillis),
                MAX_RESTART_DELAY_MS / 1e3,
                seed,
                rig.runs(),
                command));
        byEngine.forEach((engine, storms) -> {
            List<KillOutcome> all =
                    storms.stream().flatMap(s -> s.kills().stream()).toList();
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %s | %s | %.1f | %.1f |%n",
                    engine,
                    all.size(),
                    medianAndMax(all, KillOutcome::outputAgainSeconds, "%.1f"),
                    medianAndMax(all, KillOutcome::pauseSeconds, "%.1f"),
                    medianAndMax(all, KillOutcome::rebalances, "%.0f"),
                    FailoverRig.median(storms, StormRun::freshRunningSeconds),
                    FailoverRig.median(storms, StormRun::freshShareSeconds)));
        });
        byEngine.forEach((engine, storms) -> storms.stream()
                .map(StormRun::timeline)
                .filter(t -> !t.isEmpty())
                .findFirst()
                .ifPresent(t ->
                        text.append(String.format(Locale.ROOT, "%nThe timeline of one restart, %s: %s", engine, t))));
        return text.toString();
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : String.format(Locale.ROOT, "%.1f", millis / 1e3);
    }

    private static String medianAndMax(List<KillOutcome> kills, ToDoubleFunction<KillOutcome> value, String format) {
        if (kills.isEmpty()) {
            return "-";
        }
        return String.format(
                Locale.ROOT,
                "%.1f, " + format,
                FailoverRig.median(kills, value),
                kills.stream().mapToDouble(value).max().orElseThrow());
    }

    @Override
    public void close() {
        rig.close();
    }
}
