package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.HeapMonitor;
import io.weir.benchmarks.TableTopologies;
import io.weir.benchmarks.WordCountInput;
import io.weir.benchmarks.runtime.TableWorkload.Engine;
import io.weir.streams.test.kafka.ExternalKafkaBroker;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Tables on a real broker, Weir beside Kafka Streams 4.4, both one instance with one thread,
 * exactly-once, a commit every 100 ms, RocksDB stores with their default caches:
 *
 * <ul>
 *   <li><b>word count</b> and <b>regroup</b> (see {@link TableTopologies}): each engine, as a fresh
 *       application, over the same pre-loaded input, timed from {@code start()} until its output, read
 *       back with {@code read_committed}, holds the expected final value of every key (which also
 *       checks it);
 *   <li><b>restore</b>: the count table of {@code --restore-keys} keys restored into a fresh instance,
 *       timed by the restore listeners;
 *   <li><b>heap</b>: Weir's count per key over ever more keys, with the heap after GC during the run
 *       and at its end, and the state's size on disk.
 * </ul>
 *
 * Each engine runs once untimed over a small input before the timed runs, which alternate between the
 * engines; each table row is the median of {@code --runs}. See benchmarks/README.md.
 */
public final class TableBenchmark implements AutoCloseable {

    /**
     * A pre-loaded input: its records, what they amount to (words, for the word count), where each
     * partition ends, and the expected final output.
     */
    record LoadedInput(
            String topic, int records, long units, Map<TopicPartition, Long> ends, Map<String, Long> expected) {}

    /** A measurement of one engine, at a rate. */
    interface Measured {
        Engine engine();

        double recordsPerSecond();
    }

    /** One timed run of a workload until its output was complete. */
    record ThroughputRow(
            Engine engine,
            int records,
            long units,
            double seconds,
            double cpuSeconds,
            long peakAfterGcBytes,
            long output)
            implements Measured {

        @Override
        public double recordsPerSecond() {
            return records / seconds;
        }
    }

    /** One restore into a fresh instance. */
    record RestoreRow(Engine engine, long records, double restoreSeconds, double startSeconds, double cpuSeconds)
            implements Measured {

        @Override
        public double recordsPerSecond() {
            return records / restoreSeconds;
        }
    }

    /** One run of the heap phase: heap figures less the heap before the run. */
    record HeapRow(
            Engine engine,
            int keys,
            int records,
            double seconds,
            long baseBytes,
            long peakAfterGcBytes,
            long endBytes,
            long stateBytes) {}

    private static final Logger log = LoggerFactory.getLogger(TableBenchmark.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private final KafkaBroker broker;
    private final TableOptions options;
    private final String runId = "tb" + Long.toString(System.currentTimeMillis(), 36);
    private final Path stateRoot;
    private final GroupProgress progress;
    private final RetryOnce retry = new RetryOnce();
    private int stateDirs;

    TableBenchmark(KafkaBroker broker, TableOptions options) {
        this.broker = broker;
        this.options = options;
        try {
            this.stateRoot = Files.createTempDirectory("weir-table-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.progress = new GroupProgress(broker.bootstrapServers());
    }

    public static void main(String[] args) throws Exception {
        TableOptions options = CommandLine.parseOrExit(args, TableOptions::parse);
        String command = CommandLine.of(TableBenchmark.class, args);
        try (KafkaBroker broker = options.bootstrap() != null
                        ? ExternalKafkaBroker.at(options.bootstrap()).start()
                        : StandaloneBroker.start(options.brokerScript());
                TableBenchmark bench = new TableBenchmark(broker, options)) {
            System.out.print(bench.run(command).text());
        }
    }

    /** The restores, and the bare consumer's reads of Weir's changelog (empty if Weir did not run). */
    record Restores(List<Runs<RestoreRow>> runs, List<ChangelogReader.Read> ceiling) {}

    /** Every phase's runs, and the report they make. */
    record Results(
            Map<TableWorkload, List<Runs<ThroughputRow>>> throughput,
            Restores restore,
            List<HeapRow> heap,
            String text) {}

    /** Runs the phases the options ask for. */
    Results run(String command) throws Exception {
        TableReport report = new TableReport(command, options);
        Map<TableWorkload, List<Runs<ThroughputRow>>> throughput = new EnumMap<>(TableWorkload.class);
        if (options.phases().contains(TableOptions.Phase.WORD_COUNT)) {
            throughput.put(TableWorkload.WORD_COUNT, throughput(TableWorkload.WORD_COUNT));
            report.throughput(TableWorkload.WORD_COUNT, "lines", "words", throughput.get(TableWorkload.WORD_COUNT));
        }
        if (options.phases().contains(TableOptions.Phase.REGROUP)) {
            throughput.put(TableWorkload.REGROUP, throughput(TableWorkload.REGROUP));
            report.throughput(TableWorkload.REGROUP, "updates", "updates", throughput.get(TableWorkload.REGROUP));
        }
        Restores restore = new Restores(List.of(), List.of());
        if (options.phases().contains(TableOptions.Phase.RESTORE)) {
            restore = restore();
            report.restore(restore);
        }
        List<HeapRow> heap = List.of();
        if (options.phases().contains(TableOptions.Phase.HEAP)) {
            heap = heap();
            report.heap(heap);
        }
        return new Results(throughput, restore, heap, report.text() + retry.report());
    }

    private List<Runs<ThroughputRow>> throughput(TableWorkload workload) throws Exception {
        LoadedInput warmup = retry.run(
                workload.title() + " warm-up pre-load", attempt -> input(workload, "warmup-a" + attempt, true));
        for (Engine engine : options.engines()) {
            log.info("{}: {} warms up on {} records", workload.title(), engine.id(), warmup.records());
            retry.run(
                    workload.title() + " warm-up of " + engine.id(),
                    attempt -> runUntilComplete(
                            workload,
                            engine,
                            name(workload.name() + "-warmup-" + engine.id() + "-a" + attempt),
                            warmup));
        }
        LoadedInput input =
                retry.run(workload.title() + " pre-load", attempt -> input(workload, "input-a" + attempt, false));
        Map<Engine, List<ThroughputRow>> runs = new EnumMap<>(Engine.class);
        for (int round = 1; round <= options.runs(); round++) {
            for (Engine engine : options.engines()) {
                String appId = name(workload.name() + "-" + engine.id() + "-r" + round);
                ThroughputRow row = retry.run(
                        workload.title() + " run " + round + " of " + engine.id(),
                        attempt -> runUntilComplete(workload, engine, appId + "-a" + attempt, input));
                runs.computeIfAbsent(engine, e -> new ArrayList<>()).add(row);
            }
        }
        List<Runs<ThroughputRow>> rows = new ArrayList<>();
        runs.values().forEach(r -> rows.add(Runs.of(r, ThroughputRow::recordsPerSecond)));
        return rows;
    }

    private ThroughputRow runUntilComplete(TableWorkload workload, Engine engine, String appId, LoadedInput input)
            throws TimeoutException, InterruptedException {
        String output = topic(appId + "-out");
        AppSetup setup = setup(appId, input.topic(), output, new RestoreProgress());
        try (LatestValues latest = new LatestValues(bootstrap(), output, options.partitions(), input.expected());
                StreamingApp app = workload.open(engine, setup);
                HeapMonitor heap = new HeapMonitor()) {
            long cpu = BenchContext.processCpuNanos();
            long start = System.nanoTime();
            app.start();
            long end = latest.awaitExpected(app, TIMEOUT);
            ThroughputRow row = new ThroughputRow(
                    engine,
                    input.records(),
                    input.units(),
                    (end - start) / 1e9,
                    (BenchContext.processCpuNanos() - cpu) / 1e9,
                    heap.peakAfterGcBytes(),
                    latest.records());
            log.info("{}: {} {} records/s", workload.title(), engine.id(), Math.round(row.recordsPerSecond()));
            return row;
        }
    }

    private Restores restore() throws TimeoutException, InterruptedException {
        int keys = options.restoreKeys();
        LoadedInput input = load(name("restore-input"), keys, i -> "k" + i, i -> "x", keys, Map.of());
        Map<Engine, String> populated = new EnumMap<>(Engine.class);
        for (Engine engine : options.engines()) {
            String appId = name("restore-" + engine.id());
            log.info("Restore: {} counts {} keys, writing its changelog", engine.id(), keys);
            try (StreamingApp app = TableWorkload.KEY_COUNT.open(
                    engine, setup(appId, input.topic(), topic(appId + "-out"), new RestoreProgress()))) {
                app.start();
                progress.awaitCommitted(app, appId, input.ends(), TIMEOUT);
            }
            populated.put(engine, appId);
        }
        Map<Engine, List<RestoreRow>> runs = new EnumMap<>(Engine.class);
        List<ChangelogReader.Read> ceiling = new ArrayList<>();
        for (int round = 1; round <= options.runs(); round++) {
            String weirApp = populated.get(Engine.WEIR);
            if (weirApp != null) {
                ceiling.add(ChangelogReader.read(bootstrap(), weirApp + "-" + TableTopologies.COUNTS + "-changelog"));
            }
            for (Map.Entry<Engine, String> p : populated.entrySet()) {
                RestoreProgress restored = new RestoreProgress();
                String appId = p.getValue();
                RestorePhase.Started started;
                try (StreamingApp app = TableWorkload.KEY_COUNT.open(
                        p.getKey(), setup(appId, input.topic(), appId + "-out", restored))) {
                    started = RestorePhase.startAndAwaitRunning(app, appId);
                }
                RestoreRow row = new RestoreRow(
                        p.getKey(),
                        restored.records(),
                        restored.restoreSeconds(),
                        started.seconds(),
                        started.cpuSeconds());
                log.info(
                        "Restore: {} {} records at {} records/s",
                        appId,
                        row.records(),
                        Math.round(row.recordsPerSecond()));
                runs.computeIfAbsent(p.getKey(), e -> new ArrayList<>()).add(row);
            }
        }
        List<Runs<RestoreRow>> rows = new ArrayList<>();
        runs.values().forEach(r -> rows.add(Runs.of(r, RestoreRow::recordsPerSecond)));
        return new Restores(rows, ceiling);
    }

    private List<HeapRow> heap() throws TimeoutException, InterruptedException {
        List<HeapRow> rows = new ArrayList<>();
        for (int keys : options.heapKeys()) {
            int records = Math.max(keys, options.heapRecords());
            LoadedInput input = load(name("heap-" + keys), records, i -> "k" + (i % keys), i -> "x", records, Map.of());
            for (Engine engine : options.heapEngines()) {
                String appId = name("heap-" + keys + "-" + engine.id());
                AppSetup setup = setup(appId, input.topic(), topic(appId + "-out"), new RestoreProgress());
                long base = HeapMonitor.liveBytes();
                try (StreamingApp app = TableWorkload.KEY_COUNT.open(engine, setup);
                        HeapMonitor heap = new HeapMonitor()) {
                    long start = System.nanoTime();
                    app.start();
                    long end = progress.awaitCommitted(app, appId, input.ends(), TIMEOUT);
                    long peak = heap.peakAfterGcBytes();
                    long live = HeapMonitor.liveBytes();
                    HeapRow row = new HeapRow(
                            engine, keys, records, (end - start) / 1e9, base, peak, live, size(setup.stateDir()));
                    log.info("Heap: {} at {} keys: {} MB after GC at the end", engine.id(), keys, (live - base) >> 20);
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private LoadedInput input(TableWorkload workload, String suffix, boolean warmup) {
        String topic = name(workload.name().toLowerCase(Locale.ROOT) + "-" + suffix);
        if (workload == TableWorkload.WORD_COUNT) {
            WordCountInput lines = new WordCountInput(
                    warmup ? Math.min(options.lines(), 200_000) : options.lines(),
                    options.vocabulary(),
                    warmup ? 7 : 42);
            return load(topic, lines.size(), i -> "l" + i, lines::line, lines.words(), lines.expected());
        }
        int updates = warmup ? Math.min(options.updates(), 500_000) : options.updates();
        Random random = new Random(warmup ? 7 : 42);
        String[] users = new String[updates];
        String[] values = new String[updates];
        Map<String, String> latest = new HashMap<>();
        for (int i = 0; i < updates; i++) {
            users[i] = "u" + random.nextInt(options.users());
            values[i] = TableTopologies.userValue(random.nextInt(options.regions()), 1 + random.nextInt(100));
            latest.put(users[i], values[i]);
        }
        Map<String, Long> sums = new HashMap<>();
        latest.values().forEach(v -> sums.merge(TableTopologies.region(v), TableTopologies.amount(v), Long::sum));
        return load(topic, updates, i -> users[i], i -> values[i], updates, sums);
    }

    private LoadedInput load(
            String topic,
            int records,
            IntFunction<String> key,
            IntFunction<String> value,
            long units,
            Map<String, Long> expected) {
        topic(topic);
        log.info("Pre-loading {} records into {}", records, topic);
        long start = System.currentTimeMillis() - records - 60_000L;
        Preloader.load(bootstrap(), topic, records, key, i -> start + i, value);
        return new LoadedInput(topic, records, units, progress.committedEnd(topic, options.partitions()), expected);
    }

    private String name(String suffix) {
        return runId + "-" + suffix.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private String topic(String name) {
        broker.createTopic(name, options.partitions());
        return name;
    }

    private String bootstrap() {
        return broker.bootstrapServers();
    }

    private AppSetup setup(String appId, String input, String output, RestoreProgress restore) {
        return new AppSetup(
                broker, appId, input, output, options.partitions(), stateRoot.resolve("state-" + stateDirs++), restore);
    }

    private static long size(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        progress.close();
        TempDirs.deleteRecursively(stateRoot);
    }
}
