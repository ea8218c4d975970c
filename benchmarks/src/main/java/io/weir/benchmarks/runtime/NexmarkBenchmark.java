package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.nexmark.ClosingEvents;
import io.weir.benchmarks.nexmark.Event;
import io.weir.benchmarks.nexmark.NexmarkConfig;
import io.weir.benchmarks.nexmark.NexmarkGenerator;
import io.weir.benchmarks.nexmark.NexmarkLoader;
import io.weir.benchmarks.nexmark.NexmarkQueries;
import io.weir.benchmarks.nexmark.NexmarkQuery;
import io.weir.benchmarks.nexmark.NexmarkSources;
import io.weir.benchmarks.nexmark.NexmarkTopics;
import io.weir.benchmarks.nexmark.PassThroughCeiling;
import io.weir.benchmarks.nexmark.Results;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Nexmark on a real broker: each query in Weir and in Kafka Streams 4.4, side by side, on the same
 * pre-loaded input. Every instance runs in a JVM of its own ({@link NexmarkInstance}): one stream thread,
 * exactly-once, a commit every 100 ms (both libraries' default under exactly-once), RocksDB stores with
 * each library's default cache. A run is a fresh application started on the whole input ({@code
 * --instances} instances, each in its own JVM, sharing the partitions); it ends when a {@code read_committed}
 * reader of its output holds exactly the query's reference results, and the output is checked again, to
 * its end, after the instances closed: a run that is fast and wrong fails the benchmark.
 *
 * <p>One partition per topic and one instance by default. With one partition, the input and its {@link
 * ClosingEvents} are loaded once, before every run. With more ({@code --partitions}), each run gets topics
 * of its own, loaded before it starts (not timed), and the closing events are appended only once its
 * application has consumed and committed the whole input and everything it passed through its
 * repartition topics: Kafka Streams' stream time is the largest it has seen, so closing events of one
 * upstream partition that reached a repartition topic while another upstream partition still had records
 * to pass on would make those records late, and it would drop them (the smoke test's q7 lost the highest
 * bid of a window so, with 2 partitions and a 4 s grace). Weir's watermark, the minimum over the upstream
 * partitions, waits for them either way. A run's topics are deleted after it.
 *
 * <p>Measured per run: events/s (input events over the time from {@code start()} to the complete result),
 * the instances' CPU seconds over the same span (from {@code /proc}, so JVM start-up and topology building
 * are left out), events per CPU-second, the state directories' bytes once closed, and the most heap an
 * instance kept after a GC. Runs alternate between the engines; rows are medians of {@code --runs}.
 *
 * <pre>{@code
 * java -Xmx4g -cp "benchmarks/target/benchmarks.jar:benchmarks/target/lib/*" io.weir.benchmarks.runtime.NexmarkBenchmark \
 *     --events 1000000 --runs 3
 * }</pre>
 */
public final class NexmarkBenchmark implements AutoCloseable {

    /** One timed run. */
    record Row(
            String query,
            NexmarkEngine engine,
            int instances,
            long events,
            double seconds,
            double cpuSeconds,
            long stateBytes,
            long peakHeapBytes,
            long results) {
        double eventsPerSecond() {
            return events / seconds;
        }

        double eventsPerCpuSecond() {
            return events / cpuSeconds;
        }
    }

    /** The runs of one query at one instance count, by engine. */
    /**
     * The runs of one query at one instance count, by engine, and the engines whose runs failed (their
     * output wrong, or not complete within {@code --timeout-s}, twice): why, in a line.
     */
    record QueryRuns(
            String query, int instances, Map<NexmarkEngine, Runs<Row>> runs, Map<NexmarkEngine, String> failures) {}

    private static final Logger log = LoggerFactory.getLogger(NexmarkBenchmark.class);

    private final KafkaBroker broker;
    private final Map<String, String> options;
    private final int partitions;
    private final Path stateRoot;
    private final String runId = "nx" + Long.toString(System.currentTimeMillis(), 36);
    private final NexmarkConfig config;
    private final RetryOnce retry = new RetryOnce();

    NexmarkBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.broker = broker;
        this.options = options;
        this.partitions = number("--partitions", 1);
        this.config = config();
        try {
            this.stateRoot = Files.createTempDirectory("weir-nexmark-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, NexmarkBenchmark::parse);
        String command = CommandLine.of(NexmarkBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                NexmarkBenchmark bench = new NexmarkBenchmark(broker, options)) {
            List<QueryRuns> runs = bench.run();
            System.out.print(bench.report(command, runs));
            String svg = options.get("--svg");
            if (svg != null) {
                Files.writeString(Path.of(svg), NexmarkChart.svg(runs, bench.setup()));
            }
            if (runs.stream().anyMatch(q -> !q.failures().isEmpty())) {
                System.exit(1);
            }
        }
    }

    static Map<String, String> parse(String... args) {
        List<String> known = List.of(
                "--events",
                "--rate",
                "--seed",
                "--partitions",
                "--queries",
                "--engines",
                "--instances",
                "--runs",
                "--timeout-s",
                "--svg",
                "--bootstrap",
                "--broker-script");
        return CommandLine.options(args, known);
    }

    /**
     * The generator's settings: {@code --events}, {@code --rate} and {@code --seed} over Nexmark's defaults,
     * event time ending a minute before the benchmark starts.
     */
    private NexmarkConfig config() {
        NexmarkConfig defaults = NexmarkConfig.defaults();
        NexmarkConfig config = defaults.withEvents(number("--events", 1_000_000))
                .withFirstEventRate(number("--rate", defaults.firstEventRate()))
                .withSeed(number("--seed", 1));
        // Event time ends a minute before now, so that no topic's retention deletes the input.
        long span = config.eventTime(config.events()) - config.eventTime(0);
        return config.withBaseTime(System.currentTimeMillis() - span - 60_000);
    }

    /** Every chosen query, at every chosen instance count, in both engines. */
    List<QueryRuns> run() throws Exception {
        List<Event> input = new ArrayList<>();
        new NexmarkGenerator(config).forEachRemaining(input::add);
        long last = input.stream().mapToLong(Event::dateTime).max().orElseThrow();
        List<Event> closing = ClosingEvents.after(last, partitions);
        List<Event> events = new ArrayList<>(input);
        events.addAll(closing);
        Duration outOfOrder = NexmarkSources.outOfOrder(config);
        long watermark = events.get(events.size() - 1).dateTime() - outOfOrder.toMillis();
        RunInputs inputs = partitions == 1
                ? shared(retry.run("pre-load", attempt -> load(events, runId + "-a" + attempt + "-")))
                : app -> new NexmarkRun.Input(load(input, app + "-in-"), closing);
        List<QueryRuns> all = new ArrayList<>();
        for (String name : options.getOrDefault("--queries", "all").split(",", -1)) {
            List<NexmarkQuery<?, ?>> queries =
                    name.equals("all") ? NexmarkQueries.all() : List.of(NexmarkQueries.named(name.trim()));
            for (NexmarkQuery<?, ?> query : queries) {
                Results expected = Results.expected(query, events, watermark);
                log.info("{}: {} results expected", query.name(), expected.size());
                for (String n : options.getOrDefault("--instances", "1").split(",", -1)) {
                    int instances = Integer.parseInt(n.trim());
                    all.add(measure(query, instances, inputs, outOfOrder, events.size(), expected));
                }
            }
        }
        return all;
    }

    /** Where each run's input comes from, given the run's application id. */
    @FunctionalInterface
    private interface RunInputs {
        NexmarkRun.Input of(String app);
    }

    private static RunInputs shared(NexmarkTopics topics) {
        NexmarkRun.Input input = new NexmarkRun.Input(topics, List.of());
        return app -> input;
    }

    private NexmarkTopics load(List<Event> events, String prefix) {
        NexmarkTopics topics = NexmarkTopics.prefixed(prefix);
        for (String topic : topics.all()) {
            broker.createTopic(topic, partitions);
        }
        log.info("Pre-loading {} events", events.size());
        NexmarkLoader.load(broker.bootstrapServers(), topics, events.iterator());
        return topics;
    }

    private QueryRuns measure(
            NexmarkQuery<?, ?> query,
            int instances,
            RunInputs inputs,
            Duration outOfOrder,
            long events,
            Results expected)
            throws Exception {
        Map<NexmarkEngine, List<Row>> rows = new LinkedHashMap<>();
        Map<NexmarkEngine, String> failures = new LinkedHashMap<>();
        Duration timeout = Duration.ofSeconds(number("--timeout-s", 600));
        for (int round = 1; round <= number("--runs", 3); round++) {
            for (NexmarkEngine engine : engines()) {
                if (engine == NexmarkEngine.CEILING && !query.name().equals(PassThroughCeiling.QUERY)) {
                    continue;
                }
                if (failures.containsKey(engine)) {
                    continue;
                }
                String run = query.name() + "-" + engine.id() + "-x" + instances + "-r" + round;
                try {
                    Row row = retry.run(run, attempt -> {
                        String app = runId + "-" + run + "-a" + attempt;
                        try {
                            return new NexmarkRun(
                                            broker,
                                            query,
                                            engine,
                                            instances,
                                            inputs.of(app),
                                            outOfOrder,
                                            partitions,
                                            app,
                                            stateRoot)
                                    .measure(events, expected, timeout);
                        } finally {
                            if (partitions > 1) {
                                RunTopics.deleteStartingWith(broker.bootstrapServers(), app + "-");
                            }
                        }
                    });
                    log.info(
                            "{}: {} x{}: {} events/s, {} events per CPU-second",
                            query.name(),
                            engine.id(),
                            instances,
                            Math.round(row.eventsPerSecond()),
                            Math.round(row.eventsPerCpuSecond()));
                    rows.computeIfAbsent(engine, e -> new ArrayList<>()).add(row);
                } catch (WrongOutput | TimeoutException e) {
                    // One engine's wrong or stuck query must not cost the other queries' figures: reported
                    // in its row, and the benchmark ends with a failure status.
                    log.error("{} failed", run, e);
                    failures.put(engine, e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        }
        Map<NexmarkEngine, Runs<Row>> byEngine = new LinkedHashMap<>();
        rows.forEach((engine, r) -> byEngine.put(engine, Runs.of(r, Row::eventsPerCpuSecond)));
        return new QueryRuns(query.name(), instances, byEngine, failures);
    }

    /** The report: a table row per query and instance count, medians by events per CPU-second. */
    String report(String command, List<QueryRuns> all) {
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "Nexmark on a real broker, exactly-once, commit every 100 ms, one stream thread per instance, %d "
                        + "partitions, %,d events (rate %,d/s of event time, seed %d), median of %s runs by events "
                        + "per CPU-second%n%s%n| query | instances | Weir events/s | KS events/s | Weir events/CPU-s "
                        + "| KS events/CPU-s | Weir / KS per CPU-s | CPU s (Weir, KS) | state MB (Weir, KS) "
                        + "| peak heap after GC, MB (Weir, KS) | results | events/CPU-s of each run (Weir; KS) |%n"
                        + "|---|---|---|---|---|---|---|---|---|---|---|---|%n",
                partitions,
                config.events(),
                config.firstEventRate(),
                config.seed(),
                options.getOrDefault("--runs", "3"),
                command));
        for (QueryRuns q : all) {
            Runs<Row> weir = q.runs().get(NexmarkEngine.WEIR);
            Runs<Row> ks = q.runs().get(NexmarkEngine.KAFKA_STREAMS);
            String ratio = weir == null || ks == null
                    ? "-"
                    : format(
                            "%.2fx",
                            weir.median().eventsPerCpuSecond() / ks.median().eventsPerCpuSecond());
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %s | %s | %s | %s | %s, %s | %s, %s | %s, %s | %s | %s; %s |%n",
                    q.query(),
                    q.instances(),
                    cell(weir, r -> format("%,.0f", r.median().eventsPerSecond())),
                    cell(ks, r -> format("%,.0f", r.median().eventsPerSecond())),
                    cell(weir, r -> format("%,.0f", r.median().eventsPerCpuSecond())),
                    cell(ks, r -> format("%,.0f", r.median().eventsPerCpuSecond())),
                    ratio,
                    cell(weir, r -> format("%.1f", r.median().cpuSeconds())),
                    cell(ks, r -> format("%.1f", r.median().cpuSeconds())),
                    cell(weir, r -> Long.toString(r.median().stateBytes() >> 20)),
                    cell(ks, r -> Long.toString(r.median().stateBytes() >> 20)),
                    cell(weir, r -> Long.toString(r.median().peakHeapBytes() >> 20)),
                    cell(ks, r -> Long.toString(r.median().peakHeapBytes() >> 20)),
                    weir != null
                            ? weir.median().results()
                            : ks != null ? ks.median().results() : 0,
                    cell(weir, Runs::ratesText),
                    cell(ks, Runs::ratesText)));
        }
        for (QueryRuns q : all) {
            Runs<Row> behind = q.runs().get(NexmarkEngine.WEIR_BEHIND);
            if (behind != null) {
                double rate = behind.median().eventsPerCpuSecond();
                text.append(String.format(
                        Locale.ROOT,
                        "%s x%d Weir committing every second while behind (commit.interval.behind.ms=1000): %,.0f "
                                + "events/s, %,.0f events per CPU-second (%s); %s Weir at 100 ms, %s Kafka Streams%n",
                        q.query(),
                        q.instances(),
                        behind.median().eventsPerSecond(),
                        rate,
                        behind.ratesText(),
                        cell(q.runs().get(NexmarkEngine.WEIR), r -> times(rate, r)),
                        cell(q.runs().get(NexmarkEngine.KAFKA_STREAMS), r -> times(rate, r))));
            }
        }
        for (QueryRuns q : all) {
            Runs<Row> ceiling = q.runs().get(NexmarkEngine.CEILING);
            if (ceiling != null) {
                double top = ceiling.median().eventsPerCpuSecond();
                text.append(String.format(
                        Locale.ROOT,
                        "%s x%d ceiling (Kafka's clients alone: an exactly-once consume-produce loop): %,.0f events/s, "
                                + "%,.0f events per CPU-second (%s); Weir at %s of it, Kafka Streams at %s%n",
                        q.query(),
                        q.instances(),
                        ceiling.median().eventsPerSecond(),
                        top,
                        ceiling.ratesText(),
                        cell(q.runs().get(NexmarkEngine.WEIR), r -> share(r, top)),
                        cell(q.runs().get(NexmarkEngine.KAFKA_STREAMS), r -> share(r, top))));
            }
        }
        for (QueryRuns q : all) {
            q.failures()
                    .forEach((engine, why) -> text.append(
                            String.format(Locale.ROOT, "%s on %s FAILED: %s%n", q.query(), engine.id(), why)));
        }
        text.append(retry.report());
        return text.toString();
    }

    /** One line for the chart: what ran, how. */
    String setup() {
        return String.format(
                Locale.ROOT,
                "%,d events, %d partition(s), exactly-once, commit 100 ms, median of %s runs; 2-core VM, broker on it.",
                config.events(),
                partitions,
                options.getOrDefault("--runs", "3"));
    }

    private static String times(double rate, Runs<Row> runs) {
        return format("%.2fx", rate / runs.median().eventsPerCpuSecond());
    }

    private static String share(Runs<Row> runs, double ceiling) {
        return format("%.0f%%", 100 * runs.median().eventsPerCpuSecond() / ceiling);
    }

    private static String cell(@Nullable Runs<Row> runs, Function<Runs<Row>, String> text) {
        return runs == null ? "-" : text.apply(runs);
    }

    private static String format(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }

    private List<NexmarkEngine> engines() {
        return Arrays.stream(
                        options.getOrDefault("--engines", "weir,kafka-streams").split(",", -1))
                .map(e -> NexmarkEngine.byId(e.trim()))
                .toList();
    }

    private int number(String option, int fallback) {
        String value = options.get(option);
        return value == null ? fallback : Integer.parseInt(value.replace("_", ""));
    }

    @Override
    public void close() {
        TempDirs.deleteRecursively(stateRoot);
    }
}
