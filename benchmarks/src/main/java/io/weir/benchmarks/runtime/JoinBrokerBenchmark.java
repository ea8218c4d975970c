package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.HeapMonitor;
import io.weir.benchmarks.TableTopologies;
import io.weir.benchmarks.joins.JoinBenchmark;
import io.weir.benchmarks.joins.JoinBenchmark.Input;
import io.weir.benchmarks.joins.JoinBenchmark.Workload;
import io.weir.benchmarks.runtime.TableWorkload.Engine;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The joins of {@link JoinBenchmark} on a real broker: Weir beside Kafka Streams 4.4, each one instance
 * with one thread, exactly-once, a commit every 100 ms, RocksDB stores with their default caches, every
 * topic {@code --partitions} partitions. Each workload's input is pre-loaded once, each topic in event
 * time order (event times moved to end a minute ago, so no retention deletes them); each run is a fresh
 * application timed from {@code start()} until a {@code read_committed} reader of its output holds the
 * whole result: as many results as the input makes (the enrichment: one per event; the windowed join:
 * the pairs of a model), or, for the foreign-key join, the relational join of the final tables. The
 * windowed join's results must also have the same checksum in both engines. Also measured: this JVM's
 * CPU time (the broker runs in its own process) and the most heap left after a GC during the run. Each engine first runs
 * untimed over a fifth of the input; the timed runs alternate between the engines; rows are medians of
 * {@code --runs}.
 */
public final class JoinBrokerBenchmark implements AutoCloseable {

    /** One timed run. */
    record Row(Engine engine, int records, double seconds, double cpuSeconds, long peakAfterGcBytes, long results) {
        double recordsPerSecond() {
            return records / seconds;
        }
    }

    /** The runs of one workload, by engine. */
    record WorkloadRuns(String workload, int records, Map<Engine, Runs<Row>> runs) {}

    /** What the benchmark measured, and its report. */
    record Results(List<WorkloadRuns> workloads, String text) {}

    private static final Logger log = LoggerFactory.getLogger(JoinBrokerBenchmark.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(20);

    private final KafkaBroker broker;
    private final Map<String, String> options;
    private final int partitions;
    private final String runId = "jb" + Long.toString(System.currentTimeMillis(), 36);
    private final Path stateRoot;
    private final GroupProgress progress;
    private final RetryOnce retry = new RetryOnce();
    private int stateDirs;

    JoinBrokerBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.broker = broker;
        this.options = options;
        this.partitions = number("--partitions", 3);
        try {
            this.stateRoot = Files.createTempDirectory("weir-join-broker-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.progress = new GroupProgress(broker.bootstrapServers());
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, JoinBrokerBenchmark::parse);
        String command = CommandLine.of(JoinBrokerBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                JoinBrokerBenchmark bench = new JoinBrokerBenchmark(broker, options)) {
            System.out.print(bench.run(command).text());
        }
    }

    static Map<String, String> parse(String... args) {
        return JoinBenchmark.options(args, List.of("--partitions", "--engines", "--bootstrap", "--broker-script"));
    }

    /** Runs every chosen workload. */
    Results run(String command) throws Exception {
        int runs = number("--runs", 3);
        List<WorkloadRuns> all = new ArrayList<>();
        for (String name : options.getOrDefault("--workloads", "enrichment,windowed,foreign-key")
                .split(",", -1)) {
            all.add(measure(name.trim(), runs));
        }
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "joins on a real broker, exactly-once, 1 instance, 1 thread, %d partitions, commit every 100 ms, "
                        + "median of %d runs%n%s%n| workload | input records | Weir records/s | Kafka Streams 4.4 "
                        + "records/s | Weir / KS | CPU s per run (Weir, KS) | peak heap after GC, MB (Weir, KS) "
                        + "| records/s of each run (Weir; KS) |%n|---|---|---|---|---|---|---|---|%n",
                partitions,
                runs,
                command));
        for (WorkloadRuns w : all) {
            Runs<Row> weir = w.runs().get(Engine.WEIR);
            Runs<Row> ks = w.runs().get(Engine.KAFKA_STREAMS);
            Function<Runs<Row>, String> rate = r -> format("%,.0f", r.median().recordsPerSecond());
            Function<Runs<Row>, String> cpu = r -> format("%.1f", r.median().cpuSeconds());
            Function<Runs<Row>, String> heap = r -> Long.toString(r.median().peakAfterGcBytes() >> 20);
            String ratio = weir == null || ks == null
                    ? "-"
                    : format(
                            "%.2fx",
                            weir.median().recordsPerSecond() / ks.median().recordsPerSecond());
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %s | %s | %s | %s, %s | %s, %s | %s; %s |%n",
                    w.workload(),
                    w.records(),
                    cell(weir, rate),
                    cell(ks, rate),
                    ratio,
                    cell(weir, cpu),
                    cell(ks, cpu),
                    cell(weir, heap),
                    cell(ks, heap),
                    cell(weir, Runs::ratesText),
                    cell(ks, Runs::ratesText)));
        }
        text.append(retry.report());
        return new Results(all, text.toString());
    }

    /** A column of an engine's runs, or "-" for an engine not run. */
    private static String cell(@Nullable Runs<Row> runs, Function<Runs<Row>, String> text) {
        return runs == null ? "-" : text.apply(runs);
    }

    private static String format(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }

    private WorkloadRuns measure(String name, int runs) throws Exception {
        Workload warmup = JoinBenchmark.workload(name, options, 5);
        Workload workload = JoinBenchmark.workload(name, options, 1);
        Map<String, String> warmupTopics =
                retry.run(name + " warm-up pre-load", attempt -> load(warmup, "warmup-a" + attempt));
        for (Engine engine : engines()) {
            log.info(
                    "{}: {} warms up on {} records",
                    warmup.name(),
                    engine.id(),
                    warmup.input().size());
            retry.run(
                    name + " warm-up of " + engine.id(),
                    attempt -> runOnce(warmup, engine, warmupTopics, name + "-warmup-" + engine.id() + "-a" + attempt));
        }
        Map<String, String> topics = retry.run(name + " pre-load", attempt -> load(workload, "input-a" + attempt));
        Map<Engine, List<Row>> rows = new EnumMap<>(Engine.class);
        Map<Engine, Long> checksums = new EnumMap<>(Engine.class);
        for (int round = 1; round <= runs; round++) {
            for (Engine engine : engines()) {
                String run = name + "-" + engine.id() + "-r" + round;
                Outcome outcome = retry.run(
                        name + " run " + round + " of " + engine.id(),
                        attempt -> runOnce(workload, engine, topics, run + "-a" + attempt));
                rows.computeIfAbsent(engine, e -> new ArrayList<>()).add(outcome.row());
                checksums.put(engine, outcome.checksum());
            }
        }
        if (name.equals("windowed")
                && !Objects.equals(checksums.get(Engine.WEIR), checksums.get(Engine.KAFKA_STREAMS))) {
            throw new IllegalStateException("windowed: the engines' pairs differ (checksums " + checksums + ")");
        }
        Map<Engine, Runs<Row>> byEngine = new EnumMap<>(Engine.class);
        rows.forEach((engine, r) -> byEngine.put(engine, Runs.of(r, Row::recordsPerSecond)));
        return new WorkloadRuns(workload.name(), workload.input().size(), byEngine);
    }

    /** A timed run and the checksum of its results' values. */
    private record Outcome(Row row, long checksum) {}

    private Outcome runOnce(Workload workload, Engine engine, Map<String, String> inputTopics, String run)
            throws TimeoutException, InterruptedException {
        String appId = name(run);
        String output = topic(appId + "-out");
        Map<String, String> topics = new HashMap<>(inputTopics);
        topics.put("out", output);
        UnaryOperator<String> names = logical -> Objects.requireNonNull(topics.get(logical), logical);
        AppSetup setup = new AppSetup(
                broker,
                appId,
                topics.values().iterator().next(),
                output,
                partitions,
                stateRoot.resolve("state-" + stateDirs++),
                new RestoreProgress());
        Expected expected = expected(workload);
        try (ResultReader results = new ResultReader(broker.bootstrapServers(), output, partitions, expected);
                StreamingApp app = engine == Engine.WEIR
                        ? new WeirApp(setup, workload.weir().apply(names))
                        : new KafkaStreamsApp(
                                setup, workload.kafkaStreams().apply(names), TableTopologies.optimized());
                HeapMonitor heap = new HeapMonitor()) {
            long cpu = BenchContext.processCpuNanos();
            long start = System.nanoTime();
            app.start();
            long end = results.await(app, TIMEOUT);
            double cpuSeconds = (BenchContext.processCpuNanos() - cpu) / 1e9;
            if (!workload.upserts()) {
                // Every input offset committed: no result may follow the expected ones.
                progress.awaitCommitted(app, appId, ends(inputTopics), TIMEOUT);
                results.checkExact(progress.committedEnd(output, partitions));
            }
            Row row = new Row(
                    engine,
                    workload.input().size(),
                    (end - start) / 1e9,
                    cpuSeconds,
                    heap.peakAfterGcBytes(),
                    results.count());
            log.info("{}: {} {} records/s", workload.name(), engine.id(), Math.round(row.recordsPerSecond()));
            return new Outcome(row, results.checksum());
        }
    }

    /** What a run's output must come to: a result count, or final rows. */
    private record Expected(long results, @Nullable Map<String, String> rows) {}

    private static Expected expected(Workload workload) {
        if (workload.upserts()) {
            return new Expected(-1, JoinBenchmark.modelJoinedOrders(workload.input()));
        }
        long results = workload.name().startsWith("windowed")
                ? JoinBenchmark.modelPairs(workload.input())
                : workload.input().stream()
                        .filter(i -> i.topic().equals("events"))
                        .count();
        return new Expected(results, null);
    }

    /**
     * Reads the output with {@code read_committed}: counts results and sums their values' hashes; for
     * upserts keeps the last value per key. Notes when the output first equals what is expected.
     */
    private static final class ResultReader implements AutoCloseable {
        private final Expected expected;
        private final TopicFollower<String, String> follower;
        private final Object lock = new Object();
        private final Map<String, String> rows = new HashMap<>();
        private long count;
        private long checksum;
        private long doneNanos;

        ResultReader(String bootstrap, String topic, int partitions, Expected expected) {
            this.expected = expected;
            this.follower = new TopicFollower<>(
                    bootstrap,
                    topic,
                    partitions,
                    new StringDeserializer(),
                    new StringDeserializer(),
                    100_000,
                    this::polled);
        }

        private void polled(ConsumerRecords<String, String> polled, long now) {
            synchronized (lock) {
                for (ConsumerRecord<String, String> r : polled) {
                    count++;
                    checksum += Objects.hashCode(r.value());
                    if (r.value() == null) {
                        rows.remove(r.key());
                    } else {
                        rows.put(r.key(), r.value());
                    }
                }
                if (doneNanos == 0 && done()) {
                    doneNanos = now;
                }
            }
        }

        private boolean done() {
            Map<String, String> wanted = expected.rows();
            return wanted != null ? rows.equals(wanted) : count >= expected.results();
        }

        long await(StreamingApp app, Duration timeout) throws TimeoutException, InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                follower.checkHealthy();
                synchronized (lock) {
                    if (doneNanos != 0) {
                        return doneNanos;
                    }
                }
                app.checkHealthy();
                if (System.nanoTime() > deadline) {
                    synchronized (lock) {
                        throw new TimeoutException("The output did not come to what was expected within " + timeout
                                + ": " + count + " results read, " + rows.size() + " keys");
                    }
                }
                Thread.sleep(20);
            }
        }

        /**
         * Reads up to {@code ends}, then throws unless the result count is exactly the expected one (none
         * duplicated, none extra).
         */
        void checkExact(Map<TopicPartition, Long> ends) throws TimeoutException, InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!follower.reached(ends)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("The output was not read to its end " + ends + " within " + TIMEOUT);
                }
                Thread.sleep(20);
            }
            synchronized (lock) {
                if (count != expected.results()) {
                    throw new WrongOutput(
                            count + " results, " + expected.results() + " expected: duplicated or extra results");
                }
            }
        }

        long count() {
            synchronized (lock) {
                return count;
            }
        }

        long checksum() {
            synchronized (lock) {
                return checksum;
            }
        }

        @Override
        public void close() {
            follower.close();
        }
    }

    /** Pre-loads each of the workload's topics; returns the topic of each name the workload uses. */
    private Map<String, String> load(Workload workload, String suffix) {
        Map<String, List<Input>> byTopic = new LinkedHashMap<>();
        workload.input()
                .forEach(i -> byTopic.computeIfAbsent(i.topic(), t -> new ArrayList<>())
                        .add(i));
        long first = workload.input().stream().mapToLong(Input::time).min().orElse(0);
        long last = workload.input().stream().mapToLong(Input::time).max().orElse(0);
        long shift = System.currentTimeMillis() - 60_000 - (last - first) - first;
        Map<String, String> topics = new TreeMap<>();
        String prefix = workload.name().replaceAll("[^a-z]+", "-") + "-" + suffix + "-";
        byTopic.forEach((logical, records) -> {
            String topic = topic(name(prefix + logical));
            log.info("Pre-loading {} records into {}", records.size(), topic);
            Preloader.load(
                    broker.bootstrapServers(),
                    topic,
                    records.size(),
                    i -> records.get(i).key(),
                    i -> records.get(i).time() + shift,
                    i -> records.get(i).value());
            topics.put(logical, topic);
        });
        return topics;
    }

    private Map<TopicPartition, Long> ends(Map<String, String> inputTopics) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        inputTopics.values().forEach(t -> ends.putAll(progress.committedEnd(t, partitions)));
        return ends;
    }

    private List<Engine> engines() {
        return Arrays.stream(
                        options.getOrDefault("--engines", "weir,kafka-streams").split(",", -1))
                .map(e -> Engine.byId(e.trim()))
                .toList();
    }

    private int number(String option, int fallback) {
        return JoinBenchmark.number(options, option, fallback);
    }

    private String name(String suffix) {
        return runId + "-" + suffix.toLowerCase(Locale.ROOT);
    }

    private String topic(String name) {
        broker.createTopic(name, partitions);
        return name;
    }

    @Override
    public void close() {
        progress.close();
        TempDirs.deleteRecursively(stateRoot);
    }
}
