package io.weir.benchmarks.joins;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.OptionValues;
import io.weir.benchmarks.tables.DriverRuns;
import io.weir.streams.Topology;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Joins through Weir's TestDriver and Kafka Streams' TopologyTestDriver, on the same pre-generated
 * input piped in the same order, one record per millisecond of processing time, both with RocksDB stores
 * and their defaults (Weir commits every 100 ms of processing time; Kafka Streams' driver after every
 * record, and its wall clock advances every 100 ms). Each run's output is checked: the same results as
 * the other engine's (a count and a checksum of the result values; for the foreign-key join the final
 * row per key), and for the windowed join the pair count of a model. Workloads ({@link JoinTopologies}):
 * <ul>
 *   <li>{@code enrichment}: {@code --table-keys} rows (default 100,000), then {@code --events} events
 *       (default 1,000,000) left-joined with them, with a row update every 100 events;</li>
 *   <li>{@code windowed}: {@code --window-events} events (default 200,000) on two streams, 5 ms apart,
 *       over {@code --window-keys} keys (default 50,000), joined within 10 minutes;</li>
 *   <li>{@code foreign-key}: {@code --customers} customers (default 10,000), then {@code --orders}
 *       order updates (default 300,000) over 100,000 orders, a tenth of them customer updates.</li>
 * </ul>
 * Prints input records per second (the median of {@code --runs}, default 3, alternating engines), the
 * ratio, and the state on disk per input record at the end of a run; and for Weir's aligned enrichment,
 * its throughput and the processing time each event waited for its table (mean and 99th percentile).
 */
public final class JoinBenchmark {

    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final long COMMIT_STEP_MS = 100;
    private static final Serde<String> KS = org.apache.kafka.common.serialization.Serdes.String();
    private static final List<String> OPTIONS = List.of(
            "--events",
            "--table-keys",
            "--window-events",
            "--window-keys",
            "--customers",
            "--orders",
            "--runs",
            "--workloads");

    /** One input record of the topic named {@code topic} in the workload, at event time {@code time}. */
    public record Input(String topic, String key, String value, long time) {}

    /**
     * A workload: its input and topologies, which name their topics through a function of the names the
     * input uses ({@code "out"} for the output), so the broker benchmark can give each run topics of its
     * own; whether its output is upserts; whether Weir's run ends with the end of input (the aligned
     * join's last events wait for a table update that never comes) rather than a commit (which leaves
     * buffers as Kafka Streams' run does).
     */
    public record Workload(
            String name,
            List<Input> input,
            Function<UnaryOperator<String>, Topology> weir,
            Function<UnaryOperator<String>, org.apache.kafka.streams.Topology> kafkaStreams,
            boolean upserts,
            boolean endOfInput) {}

    /** What a run produced: seconds, the results' count and checksum (or final rows), state bytes. */
    record Run(
            double seconds,
            long results,
            long checksum,
            Map<String, String> rows,
            long stateBytes,
            long tableFileBytes) {
        boolean sameResults(Run other) {
            return results == other.results && checksum == other.checksum && rows.equals(other.rows);
        }
    }

    private JoinBenchmark() {}

    public static void main(String[] args) {
        Map<String, String> options = options(args, List.of());
        int runs = Integer.parseInt(options.getOrDefault("--runs", "3"));
        List<String> chosen = Arrays.asList(options.getOrDefault("--workloads", "enrichment,windowed,foreign-key")
                .split(","));
        StringBuilder report = new StringBuilder(String.format(
                Locale.ROOT,
                "joins, test drivers, RocksDB, median of %d runs%n| workload | input records | Weir records/s "
                        + "| Kafka Streams 4.4 records/s | Weir / KS | state bytes per record (Weir, KS) "
                        + "| of which RocksDB table files (Weir, KS) | runs, s (Weir; KS) |%n|---|---|---|---|---|---|---|---|%n",
                runs));
        for (String name : chosen) {
            Workload workload = workload(name.trim(), options, 1);
            System.err.println(workload.name() + ": warming up ...");
            compare(workload, weir(workload), kafkaStreams(workload));
            System.err.println(workload.name() + ": run 1 of " + runs + " ...");
            List<Double> weirSeconds = new ArrayList<>();
            List<Double> ksSeconds = new ArrayList<>();
            Run weir = weir(workload);
            Run ks = kafkaStreams(workload);
            for (int i = 0; i < runs; i++) {
                if (i > 0) {
                    System.err.println(workload.name() + ": run " + (i + 1) + " of " + runs + " ...");
                    weir = weir(workload);
                    ks = kafkaStreams(workload);
                }
                compare(workload, weir, ks);
                weirSeconds.add(weir.seconds());
                ksSeconds.add(ks.seconds());
            }
            int records = workload.input().size();
            double w = DriverRuns.median(weirSeconds);
            double k = DriverRuns.median(ksSeconds);
            report.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %,.0f | %,.0f | %.2fx | %.0f, %.0f | %.0f, %.0f | %s; %s |%n",
                    workload.name(),
                    records,
                    records / w,
                    records / k,
                    k / w,
                    (double) weir.stateBytes() / records,
                    (double) ks.stateBytes() / records,
                    (double) weir.tableFileBytes() / records,
                    (double) ks.tableFileBytes() / records,
                    DriverRuns.format(weirSeconds),
                    DriverRuns.format(ksSeconds)));
        }
        if (chosen.contains("enrichment")) {
            report.append(aligned(options, runs));
        }
        System.out.print(report);
    }

    /** The workload {@code name} at its size in {@code options} divided by {@code divisor}. */
    public static Workload workload(String name, Map<String, String> options, int divisor) {
        return switch (name) {
            case "enrichment" ->
                enrichment(
                        number(options, "--table-keys", 100_000) / divisor,
                        number(options, "--events", 1_000_000) / divisor,
                        false);
            case "windowed" ->
                windowed(
                        number(options, "--window-events", 200_000) / divisor,
                        number(options, "--window-keys", 50_000) / divisor);
            case "foreign-key" ->
                foreignKey(
                        number(options, "--customers", 10_000) / divisor,
                        number(options, "--orders", 300_000) / divisor);
            default ->
                throw new IllegalArgumentException(
                        "Unknown workload " + name + "; use enrichment, windowed, foreign-key");
        };
    }

    public static Workload enrichment(int tableKeys, int events, boolean aligned) {
        Random random = new Random(1);
        List<Input> input = new ArrayList<>(tableKeys + events + events / 100);
        for (int i = 0; i < tableKeys; i++) {
            input.add(new Input("profiles", "k" + i, "p" + i, START));
        }
        for (int i = 0; i < events; i++) {
            long time = START + 1 + i;
            if (i % 100 == 0) {
                input.add(new Input("profiles", "k" + random.nextInt(tableKeys), "u" + i, time));
            }
            input.add(new Input("events", "k" + random.nextInt(tableKeys), "e" + i, time));
        }
        return new Workload(
                aligned ? "enrichment (aligned)" : "enrichment",
                input,
                t -> JoinTopologies.weirEnrichment(t.apply("events"), t.apply("profiles"), t.apply("out"), aligned),
                t -> JoinTopologies.kafkaStreamsEnrichment(t.apply("events"), t.apply("profiles"), t.apply("out")),
                false,
                aligned);
    }

    public static Workload windowed(int events, int keys) {
        Random random = new Random(2);
        List<Input> input = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            input.add(new Input(
                    random.nextBoolean() ? "left" : "right", "k" + random.nextInt(keys), "v" + i, START + 5L * i));
        }
        return new Workload(
                "windowed (10 min)",
                input,
                t -> JoinTopologies.weirWindowed(t.apply("left"), t.apply("right"), t.apply("out")),
                t -> JoinTopologies.kafkaStreamsWindowed(t.apply("left"), t.apply("right"), t.apply("out")),
                false,
                false);
    }

    public static Workload foreignKey(int customers, int orders) {
        Random random = new Random(3);
        List<Input> input = new ArrayList<>(customers + orders);
        for (int i = 0; i < customers; i++) {
            input.add(new Input("customers", "c" + i, "name" + i, START));
        }
        for (int i = 0; i < orders; i++) {
            long time = START + 1 + i;
            if (i % 10 == 0) {
                input.add(new Input("customers", "c" + random.nextInt(customers), "renamed" + i, time));
            } else {
                input.add(new Input("orders", "o" + random.nextInt(100_000), "c" + random.nextInt(customers), time));
            }
        }
        return new Workload(
                "foreign-key",
                input,
                t -> JoinTopologies.weirForeignKey(t.apply("orders"), t.apply("customers"), t.apply("out")),
                t -> JoinTopologies.kafkaStreamsForeignKey(t.apply("orders"), t.apply("customers"), t.apply("out")),
                true,
                false);
    }

    /** The windowed workload's pairs, by brute force per key. */
    public static long modelPairs(List<Input> input) {
        Map<String, List<Long>> lefts = new HashMap<>();
        Map<String, List<Long>> rights = new HashMap<>();
        for (Input in : input) {
            (in.topic().equals("left") ? lefts : rights)
                    .computeIfAbsent(in.key(), k -> new ArrayList<>())
                    .add(in.time());
        }
        long window = JoinTopologies.WINDOW.toMillis();
        long pairs = 0;
        for (Map.Entry<String, List<Long>> e : lefts.entrySet()) {
            for (long l : e.getValue()) {
                for (long r : rights.getOrDefault(e.getKey(), List.of())) {
                    if (Math.abs(l - r) <= window) {
                        pairs++;
                    }
                }
            }
        }
        return pairs;
    }

    /** The foreign-key workload's final result per order: its last customer id and that customer's last name. */
    public static Map<String, String> modelJoinedOrders(List<Input> input) {
        Map<String, String> orders = new HashMap<>();
        Map<String, String> customers = new HashMap<>();
        for (Input in : input) {
            (in.topic().equals("orders") ? orders : customers).put(in.key(), in.value());
        }
        Map<String, String> joined = new TreeMap<>();
        orders.forEach((order, customer) -> {
            String name = customers.get(customer);
            if (name != null) {
                joined.put(order, customer + "|" + name);
            }
        });
        return joined;
    }

    private static void compare(Workload workload, Run weir, Run ks) {
        if (!weir.sameResults(ks)) {
            throw new IllegalStateException(workload.name() + ": the engines' results differ: Weir " + weir.results()
                    + " results (checksum " + weir.checksum() + ", "
                    + weir.rows().size() + " rows), Kafka Streams "
                    + ks.results() + " (checksum " + ks.checksum() + ", "
                    + ks.rows().size() + " rows)");
        }
        if (workload.upserts() && !weir.rows().equals(modelJoinedOrders(workload.input()))) {
            throw new IllegalStateException(workload.name() + ": the results differ from the relational join");
        }
        if (workload.name().startsWith("windowed") && weir.results() != modelPairs(workload.input())) {
            throw new IllegalStateException(
                    workload.name() + ": " + weir.results() + " pairs, the model has " + modelPairs(workload.input()));
        }
    }

    static Run weir(Workload workload) {
        Path stateDir = DriverRuns.tempDir("weir-join-bench-");
        Tally tally = new Tally(workload.upserts());
        long started = System.nanoTime();
        long stateBytes;
        long tableFileBytes;
        try (TestDriver driver = new TestDriver(
                workload.weir().apply(UnaryOperator.identity()),
                TestDriverConfig.defaults()
                        .withApplicationId("weir-join-bench")
                        .withStateDir(stateDir)
                        .withStartTime(Instant.ofEpochMilli(START))
                        .withKeepReadRecords(false))) {
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            Map<String, io.weir.streams.test.TestInputTopic<String, String>> inputs = new HashMap<>();
            for (int i = 0; i < workload.input().size(); i++) {
                Input in = workload.input().get(i);
                long t = START + i;
                inputs.computeIfAbsent(in.topic(), topic -> driver.input(topic, Serdes.String(), Serdes.String()))
                        .pipe(TestRecord.of(in.key(), in.value()).at(in.time()).arrivingAt(t));
                if (i % 10_000 == 0) {
                    out.readAll().forEach(r -> tally.add(r.key(), r.value()));
                }
            }
            if (workload.endOfInput()) {
                driver.endOfInput();
            } else {
                driver.commit();
            }
            out.readAll().forEach(r -> tally.add(r.key(), r.value()));
            stateBytes = DriverRuns.size(stateDir);
            tableFileBytes = DriverRuns.tableFileSize(stateDir);
        } finally {
            DriverRuns.delete(stateDir);
        }
        return tally.run((System.nanoTime() - started) / 1e9, stateBytes, tableFileBytes);
    }

    static Run kafkaStreams(Workload workload) {
        Path stateDir = DriverRuns.tempDir("ks-join-bench-");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ks-join-bench");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        Tally tally = new Tally(workload.upserts());
        long started = System.nanoTime();
        long stateBytes;
        long tableFileBytes;
        try (TopologyTestDriver driver = new TopologyTestDriver(
                workload.kafkaStreams().apply(UnaryOperator.identity()), props, Instant.ofEpochMilli(START))) {
            org.apache.kafka.streams.TestOutputTopic<String, String> out =
                    driver.createOutputTopic("out", KS.deserializer(), KS.deserializer());
            Map<String, org.apache.kafka.streams.TestInputTopic<String, String>> inputs = new HashMap<>();
            long wallClock = START;
            for (int i = 0; i < workload.input().size(); i++) {
                Input in = workload.input().get(i);
                long t = START + i;
                if (t - wallClock >= COMMIT_STEP_MS) {
                    driver.advanceWallClockTime(Duration.ofMillis(t - wallClock));
                    wallClock = t;
                }
                inputs.computeIfAbsent(
                                in.topic(), topic -> driver.createInputTopic(topic, KS.serializer(), KS.serializer()))
                        .pipeInput(in.key(), in.value(), in.time());
                if (i % 10_000 == 0) {
                    out.readKeyValuesToList().forEach(kv -> tally.add(kv.key, kv.value));
                }
            }
            out.readKeyValuesToList().forEach(kv -> tally.add(kv.key, kv.value));
            stateBytes = DriverRuns.size(stateDir);
            tableFileBytes = DriverRuns.tableFileSize(stateDir);
        } finally {
            DriverRuns.delete(stateDir);
        }
        return tally.run((System.nanoTime() - started) / 1e9, stateBytes, tableFileBytes);
    }

    /**
     * Weir's aligned enrichment on the same input: its throughput, and how long (in processing time) each
     * event waited for the table's watermark, from its arrival to its result.
     */
    private static String aligned(Map<String, String> options, int runs) {
        Workload workload =
                enrichment(number(options, "--table-keys", 100_000), number(options, "--events", 1_000_000), true);
        Workload latest =
                enrichment(number(options, "--table-keys", 100_000), number(options, "--events", 1_000_000), false);
        long expected = weir(latest).results();
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            System.err.println("enrichment (aligned): run " + (i + 1) + " of " + runs + " ...");
            Run run = weir(workload);
            if (run.results() != expected) {
                throw new IllegalStateException(
                        "The aligned enrichment gave " + run.results() + " results, not " + expected);
            }
            seconds.add(run.seconds());
        }
        long[] waits = waits(workload);
        double mean = Arrays.stream(waits).average().orElse(0);
        Arrays.sort(waits);
        long p99 = waits.length == 0 ? 0 : waits[(int) Math.min(waits.length - 1, Math.round(waits.length * 0.99))];
        return String.format(
                Locale.ROOT,
                "%nWeir, enrichment aligned on a versioned table (a row update every 100 events): %,.0f records/s "
                        + "(runs %s s); added wait per event in processing time: mean %.1f ms, p99 %d ms%n",
                workload.input().size() / DriverRuns.median(seconds),
                DriverRuns.format(seconds),
                mean,
                p99);
    }

    /** For each event of an aligned enrichment, the processing time from its arrival to its result. */
    private static long[] waits(Workload workload) {
        Map<String, Long> arrivals = new HashMap<>();
        List<Long> waits = new ArrayList<>();
        Path stateDir = DriverRuns.tempDir("weir-join-wait-");
        try (TestDriver driver = new TestDriver(
                workload.weir().apply(UnaryOperator.identity()),
                TestDriverConfig.defaults()
                        .withStateDir(stateDir)
                        .withStartTime(Instant.ofEpochMilli(START))
                        .withKeepReadRecords(false))) {
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            for (int i = 0; i < workload.input().size(); i++) {
                Input in = workload.input().get(i);
                long t = START + i;
                driver.input(in.topic(), Serdes.String(), Serdes.String())
                        .pipe(TestRecord.of(in.key(), in.value()).at(in.time()).arrivingAt(t));
                if (in.topic().equals("events")) {
                    arrivals.put(in.value(), t);
                }
                for (OutputRecord<String, String> r : out.readAll()) {
                    String value = Objects.requireNonNull(r.value(), "an enrichment has a value");
                    Long arrived = arrivals.remove(value.substring(0, value.indexOf('|')));
                    waits.add(t - Objects.requireNonNull(arrived, "each event once"));
                }
            }
        } finally {
            DriverRuns.delete(stateDir);
        }
        return waits.stream().mapToLong(Long::longValue).toArray();
    }

    /** Results as they come: a count and an order-free checksum of the values; the last per key for upserts. */
    private static final class Tally {
        private final boolean upserts;
        private final Map<String, String> rows = new TreeMap<>();
        private long results;
        private long checksum;

        Tally(boolean upserts) {
            this.upserts = upserts;
        }

        void add(@Nullable String key, @Nullable String value) {
            if (upserts) {
                if (key == null) {
                    throw new IllegalStateException("A result without a key");
                }
                if (value == null) {
                    rows.remove(key);
                } else {
                    rows.put(key, value);
                }
                return;
            }
            results++;
            checksum += value == null ? 0 : value.hashCode();
        }

        Run run(double seconds, long stateBytes, long tableFileBytes) {
            return new Run(seconds, upserts ? rows.size() : results, checksum, rows, stateBytes, tableFileBytes);
        }
    }

    /** The number {@code name} in {@code options}, or {@code defaultValue}. */
    public static int number(Map<String, String> options, String name, int defaultValue) {
        String value = options.get(name);
        return value == null ? defaultValue : OptionValues.positiveInt(name, value);
    }

    /** Options as {@code --name value} pairs: the workloads' sizes, {@code --runs}, {@code --workloads}, and {@code more}. */
    public static Map<String, String> options(String[] args, List<String> more) {
        List<String> known = new ArrayList<>(OPTIONS);
        known.addAll(more);
        return CommandLine.options(args, known);
    }
}
