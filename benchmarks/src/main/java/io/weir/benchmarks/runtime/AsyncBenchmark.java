package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.benchmarks.FailFastSender;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A remote call per record, made three ways on a real broker ({@link AsyncVariant}): Weir's {@code
 * mapValuesAsync} with {@code --capacity} calls in flight, and {@code mapValues} waiting for the call on the
 * stream thread in Weir and in Kafka Streams 4.4. The call is a {@link ScoringService} answering after {@code
 * --delay-ms} (20 by default). Each application: one instance, one thread, exactly-once, a commit every 100
 * ms, {@code --partitions} input partitions, {@code --keys} keys.
 *
 * <p><b>Throughput.</b> The input is pre-loaded ({@code --records} for the async operator, {@code
 * --blocking-records} for the others: at 20 ms a call they make 50 a second); each run is a fresh application
 * timed from {@code start()} until a {@code read_committed} reader has read every answer. Then the output is
 * read to its committed end and checked: every answer exactly once, each key's in input order. Each variant
 * first runs untimed on {@code --warmup-records} (200; 0 for none); timed runs alternate between the variants; rows are medians of {@code
 * --runs}.
 *
 * <p><b>Latency.</b> Each variant on topics of its own, running: input written at a steady rate for {@code
 * --latency-seconds} ({@code --latency-rate} for the async operator, {@code --blocking-latency-rate} for the
 * others, each a rate it keeps up with); a record's latency is from its send until its answer is visible to
 * the {@code read_committed} reader. The first second's records are not counted (the first fetches).
 */
public final class AsyncBenchmark implements AutoCloseable {

    /** One timed throughput run. */
    record Throughput(AsyncVariant variant, int records, double seconds, double cpuSeconds, int mostOpen) {
        double recordsPerSecond() {
            return records / seconds;
        }
    }

    /** One latency run: the rate, and percentiles in milliseconds. */
    record Latency(AsyncVariant variant, int rate, int counted, double p50Ms, double p99Ms, double maxMs) {}

    /** What the benchmark measured, and its report. */
    record Results(Map<AsyncVariant, List<Throughput>> throughput, List<Latency> latencies, String text) {}

    private static final Logger log = LoggerFactory.getLogger(AsyncBenchmark.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final List<String> OPTIONS = List.of(
            "--records",
            "--blocking-records",
            "--warmup-records",
            "--keys",
            "--delay-ms",
            "--capacity",
            "--partitions",
            "--runs",
            "--variants",
            "--latency-rate",
            "--blocking-latency-rate",
            "--latency-seconds",
            "--bootstrap",
            "--broker-script");

    private final KafkaBroker broker;
    private final Map<String, String> options;
    private final int partitions;
    private final int keys;
    private final Duration delay;
    private final int capacity;
    private final List<AsyncVariant> variants;
    private final String runId = "ab" + Long.toString(System.currentTimeMillis(), 36);
    private final Path stateRoot;
    private final GroupProgress progress;
    private final RetryOnce retry = new RetryOnce();
    private int stateDirs;

    AsyncBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.broker = broker;
        this.options = options;
        this.partitions = number("--partitions", 1);
        this.keys = number("--keys", 1000);
        this.delay = Duration.ofMillis(number("--delay-ms", 20));
        this.capacity = number("--capacity", 100);
        this.variants = Arrays.stream(options.getOrDefault("--variants", "weir-async,weir-blocking,ks-blocking")
                        .split(",", -1))
                .map(v -> AsyncVariant.byId(v.trim()))
                .toList();
        try {
            this.stateRoot = Files.createTempDirectory("weir-async-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.progress = new GroupProgress(broker.bootstrapServers());
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, AsyncBenchmark::parse);
        String command = CommandLine.of(AsyncBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                AsyncBenchmark bench = new AsyncBenchmark(broker, options)) {
            System.out.print(bench.run(command).text());
        }
    }

    static Map<String, String> parse(String... args) {
        return CommandLine.options(args, OPTIONS);
    }

    /** The key of input record {@code i}. */
    static String key(int i, int keys) {
        return "k" + (i % keys);
    }

    /** Runs the warm-ups and the throughput runs, then the latency runs. */
    Results run(String command) throws Exception {
        int runs = number("--runs", 3);
        int asyncRecords = number("--records", 20_000);
        int blockingRecords = number("--blocking-records", 500);
        int warmupRecords = Integer.parseInt(options.getOrDefault("--warmup-records", "200"));
        if (warmupRecords > 0) {
            Input warmup = retry.run("warm-up pre-load", a -> load("warmup-a" + a, warmupRecords));
            for (AsyncVariant v : variants) {
                retry.run("warm-up of " + v.id(), a -> throughput(v, warmup, "warmup-" + v.id() + "-a" + a));
            }
        }
        Input asyncInput = retry.run("pre-load", a -> load("async-a" + a, asyncRecords));
        Input blockingInput = retry.run("pre-load", a -> load("blocking-a" + a, blockingRecords));
        Map<AsyncVariant, List<Throughput>> rows = new EnumMap<>(AsyncVariant.class);
        for (int round = 1; round <= runs; round++) {
            for (AsyncVariant v : variants) {
                Input input = v.blocking() ? blockingInput : asyncInput;
                String run = v.id() + "-r" + round;
                rows.computeIfAbsent(v, x -> new ArrayList<>())
                        .add(retry.run("run " + round + " of " + v.id(), a -> throughput(v, input, run + "-a" + a)));
            }
        }
        List<Latency> latencies = new ArrayList<>();
        for (AsyncVariant v : variants) {
            int rate = v.blocking() ? number("--blocking-latency-rate", 25) : number("--latency-rate", 2000);
            latencies.add(retry.run("latency of " + v.id(), a -> latency(v, rate, "lat-" + v.id() + "-a" + a)));
        }
        AsyncReport.Settings settings =
                new AsyncReport.Settings(partitions, keys, delay.toMillis(), capacity, latencySeconds(), runs);
        return new Results(rows, latencies, AsyncReport.text(command, settings, rows, latencies) + retry.report());
    }

    /** A pre-loaded input topic and its end. */
    private record Input(String topic, int records, Map<TopicPartition, Long> ends) {}

    private Input load(String suffix, int records) {
        String topic = topic(name("in-" + suffix));
        log.info("Pre-loading {} records into {}", records, topic);
        long now = System.currentTimeMillis();
        Preloader.load(
                broker.bootstrapServers(), topic, records, i -> key(i, keys), i -> now, i -> Integer.toString(i));
        return new Input(topic, records, progress.committedEnd(topic, partitions));
    }

    private Throughput throughput(AsyncVariant variant, Input input, String run)
            throws TimeoutException, InterruptedException {
        String appId = name(run);
        String output = topic(appId + "-out");
        try (ScoringService service = new ScoringService(delay);
                ScoredOutput answers =
                        new ScoredOutput(broker.bootstrapServers(), output, partitions, input.records(), keys);
                StreamingApp app = variant.open(setup(appId, input.topic(), output), service, capacity)) {
            long cpu = BenchContext.processCpuNanos();
            long start = System.nanoTime();
            app.start();
            long end = answers.awaitAll(app, TIMEOUT);
            double cpuSeconds = (BenchContext.processCpuNanos() - cpu) / 1e9;
            progress.awaitCommitted(app, appId, input.ends(), TIMEOUT);
            answers.checkTo(progress.committedEnd(output, partitions), TIMEOUT);
            Throughput row =
                    new Throughput(variant, input.records(), (end - start) / 1e9, cpuSeconds, service.mostOpen());
            log.info(
                    "{}: {} records/s, {} calls, at most {} open",
                    variant.id(),
                    Math.round(row.recordsPerSecond()),
                    service.calls(),
                    service.mostOpen());
            return row;
        }
    }

    private Latency latency(AsyncVariant variant, int rate, String run) throws TimeoutException, InterruptedException {
        String appId = name(run);
        String input = topic(appId + "-in");
        String output = topic(appId + "-out");
        int records = rate * latencySeconds();
        try (ScoringService service = new ScoringService(delay);
                ScoredOutput answers = new ScoredOutput(broker.bootstrapServers(), output, partitions, records, keys);
                StreamingApp app = variant.open(setup(appId, input, output), service, capacity)) {
            app.start();
            app.awaitRunning(TIMEOUT);
            long[] sent = send(input, records, rate);
            // Input offsets alone do not say the answers are out: a commit covers records whose calls are open.
            answers.awaitAll(app, TIMEOUT);
            progress.awaitCommitted(app, appId, progress.committedEnd(input, partitions), TIMEOUT);
            answers.checkTo(progress.committedEnd(output, partitions), TIMEOUT);
            long[] latencies = new long[records - rate];
            for (int i = rate; i < records; i++) {
                latencies[i - rate] = answers.visibleNanos(i) - sent[i];
            }
            Arrays.sort(latencies);
            Latency row = new Latency(
                    variant,
                    rate,
                    latencies.length,
                    LatencyPhase.percentileMs(latencies, 0.50),
                    LatencyPhase.percentileMs(latencies, 0.99),
                    latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e6);
            log.info("{} at {}/s: p50 {} ms, p99 {} ms", variant.id(), rate, row.p50Ms(), row.p99Ms());
            return row;
        }
    }

    /** Writes {@code records} records at {@code rate} a second; returns when each was sent (nanos). */
    private long[] send(String topic, int records, int rate) {
        long[] sent = new long[records];
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.LINGER_MS_CONFIG,
                        0),
                new StringSerializer(),
                new StringSerializer())) {
            FailFastSender<String, String> sender = new FailFastSender<>(producer, "Writing " + topic);
            long period = 1_000_000_000L / rate;
            long start = System.nanoTime();
            for (int i = 0; i < records; i++) {
                long wait;
                while ((wait = start + i * period - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                sent[i] = System.nanoTime();
                if (!sender.send(new ProducerRecord<>(topic, key(i, keys), Integer.toString(i)))) {
                    break;
                }
            }
            sender.flush();
        }
        return sent;
    }

    private AppSetup setup(String appId, String input, String output) {
        return new AppSetup(
                broker,
                appId,
                input,
                output,
                partitions,
                stateRoot.resolve("state-" + stateDirs++),
                new RestoreProgress());
    }

    private int latencySeconds() {
        return number("--latency-seconds", 20);
    }

    private int number(String option, int fallback) {
        int value = Integer.parseInt(options.getOrDefault(option, Integer.toString(fallback)));
        if (value <= 0) {
            throw new IllegalArgumentException(option + " must be positive: " + value);
        }
        return value;
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
