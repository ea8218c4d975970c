package io.weir.benchmarks.tables;

import io.weir.benchmarks.TableTopologies;
import io.weir.benchmarks.WordCountInput;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Word count (lines split into words, re-keyed by word, counted without windows) through Weir's
 * TestDriver and Kafka Streams' TopologyTestDriver, on the same pre-generated lines, both with RocksDB
 * stores and their defaults: Weir commits every 100 ms of processing time and emits each word's last
 * count at each commit; Kafka Streams' driver commits after every record, which flushes its record
 * cache, so it emits every update. Each engine's final counts are checked against the input's.
 * Prints lines and words per second, the median of {@code --runs} runs per engine (alternating), and
 * the ratio. Arguments: {@code --lines N} (default 200,000), {@code --vocabulary N} (default 10,000),
 * {@code --runs N} (default 3). See benchmarks/README.md.
 */
public final class WordCountBenchmark {

    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final String LINES = "lines";
    private static final String COUNTS = "word-counts";
    private static final long COMMIT_STEP_MS = 100;

    private WordCountBenchmark() {}

    /** One engine's run: seconds taken and the final count per word it emitted. */
    record Run(double seconds, Map<String, Long> counts) {}

    public static void main(String[] args) {
        Map<String, String> options = options(args);
        int lines = Integer.parseInt(options.getOrDefault("--lines", "200000"));
        int vocabulary = Integer.parseInt(options.getOrDefault("--vocabulary", "10000"));
        int runs = Integer.parseInt(options.getOrDefault("--runs", "3"));
        WordCountInput input = new WordCountInput(lines, vocabulary, 42);
        System.err.println("Warming up ...");
        WordCountInput warmup = new WordCountInput(Math.min(lines, 50_000), vocabulary, 7);
        check("weir", warmup, weir(warmup));
        check("kafka-streams", warmup, kafkaStreams(warmup));
        List<Double> weirSeconds = new ArrayList<>();
        List<Double> ksSeconds = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            System.err.println("Run " + (i + 1) + " of " + runs + " ...");
            weirSeconds.add(check("weir", input, weir(input)).seconds());
            ksSeconds.add(check("kafka-streams", input, kafkaStreams(input)).seconds());
        }
        double weir = DriverRuns.median(weirSeconds);
        double ks = DriverRuns.median(ksSeconds);
        System.out.printf(
                Locale.ROOT,
                "word count, %,d lines (%,d words, %,d distinct), RocksDB, test drivers, median of %d%n"
                        + "| engine | lines/s | words/s | runs (s) |%n|---|---|---|---|%n"
                        + "| Weir | %,.0f | %,.0f | %s |%n| Kafka Streams 4.4 | %,.0f | %,.0f | %s |%n"
                        + "Weir / Kafka Streams: %.2fx%n",
                lines,
                input.words(),
                input.expected().size(),
                runs,
                lines / weir,
                input.words() / weir,
                DriverRuns.format(weirSeconds),
                lines / ks,
                input.words() / ks,
                DriverRuns.format(ksSeconds),
                ks / weir);
    }

    /** Weir: lines piped one per millisecond of processing time, so it commits every 100 lines. */
    static Run weir(WordCountInput input) {
        Map<String, Long> counts = new HashMap<>();
        long started = System.nanoTime();
        try (TestDriver driver = new TestDriver(
                TableTopologies.weirWordCount(LINES, COUNTS),
                TestDriverConfig.defaults()
                        .withApplicationId("weir-bench")
                        .withStartTime(Instant.ofEpochMilli(START))
                        .withKeepReadRecords(false))) {
            TestInputTopic<String, String> in = driver.input(LINES, Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output(COUNTS, Serdes.String(), Serdes.Long());
            for (int i = 0; i < input.size(); i++) {
                long t = START + i;
                in.pipe(TestRecord.of("line", input.line(i)).at(t).arrivingAt(t));
                if (i % 10_000 == 0) {
                    drainWeir(out, counts);
                }
            }
            driver.commit();
            drainWeir(out, counts);
        }
        return new Run((System.nanoTime() - started) / 1e9, counts);
    }

    private static void drainWeir(TestOutputTopic<String, Long> out, Map<String, Long> counts) {
        for (OutputRecord<String, Long> r : out.readAll()) {
            counts.put(r.key(), r.value());
        }
    }

    /** Kafka Streams: the same lines and times; the wall clock advances every 100 ms of them. */
    static Run kafkaStreams(WordCountInput input) {
        Path stateDir = DriverRuns.tempDir("ks-bench-");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ks-bench");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        Map<String, Long> counts = new HashMap<>();
        long started = System.nanoTime();
        try (TopologyTestDriver driver = new TopologyTestDriver(
                TableTopologies.kafkaStreamsWordCount(LINES, COUNTS), props, Instant.ofEpochMilli(START))) {
            org.apache.kafka.streams.TestInputTopic<String, String> in = driver.createInputTopic(
                    LINES,
                    org.apache.kafka.common.serialization.Serdes.String().serializer(),
                    org.apache.kafka.common.serialization.Serdes.String().serializer());
            org.apache.kafka.streams.TestOutputTopic<String, Long> out = driver.createOutputTopic(
                    COUNTS,
                    org.apache.kafka.common.serialization.Serdes.String().deserializer(),
                    org.apache.kafka.common.serialization.Serdes.Long().deserializer());
            long wallClock = START;
            for (int i = 0; i < input.size(); i++) {
                long t = START + i;
                if (t - wallClock >= COMMIT_STEP_MS) {
                    driver.advanceWallClockTime(Duration.ofMillis(t - wallClock));
                    wallClock = t;
                }
                in.pipeInput("line", input.line(i), t);
                if (i % 10_000 == 0) {
                    out.readKeyValuesToList().forEach(kv -> counts.put(kv.key, kv.value));
                }
            }
            out.readKeyValuesToList().forEach(kv -> counts.put(kv.key, kv.value));
        } finally {
            DriverRuns.delete(stateDir);
        }
        return new Run((System.nanoTime() - started) / 1e9, counts);
    }

    private static Run check(String engine, WordCountInput input, Run run) {
        if (!run.counts().equals(input.expected())) {
            throw new IllegalStateException(engine + " counted differently from the input: "
                    + run.counts().size() + " words against " + input.expected().size());
        }
        return run;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!Arrays.asList("--lines", "--vocabulary", "--runs").contains(args[i])) {
                throw new IllegalArgumentException("Unknown option " + args[i] + "; use --lines, --vocabulary, --runs");
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }
}
