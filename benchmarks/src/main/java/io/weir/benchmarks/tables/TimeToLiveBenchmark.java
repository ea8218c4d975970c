package io.weir.benchmarks.tables;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * What a table's time-to-live costs as the table grows: a count per key with an event-time TTL of
 * {@code N} ms, through the TestDriver with RocksDB. {@code N} keys are loaded one per millisecond of
 * event time, then {@code --steady} records of new keys follow; from then on each record's watermark
 * advance expires exactly one old row, so the table stays at {@code N} rows. Prints the steady phase's
 * records/s for each table size, and without a TTL for comparison: if expiry scanned the store, the
 * rate would fall with {@code N}; with the expiry index it does not. Arguments: {@code --sizes
 * 10000,1000000} (default), {@code --steady N} (default 200,000).
 */
public final class TimeToLiveBenchmark {

    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    private TimeToLiveBenchmark() {}

    public static void main(String[] args) {
        String sizes = "10000,1000000";
        int steady = 200_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--sizes" -> sizes = args[i + 1];
                case "--steady" -> steady = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("Unknown option " + args[i] + "; use --sizes, --steady");
            }
        }
        System.out.printf(
                Locale.ROOT, "| rows in the table | TTL | steady records/s | rows expired |%n|---|---|---|---|%n");
        for (String size : sizes.split(",", -1)) {
            int rows = Integer.parseInt(size.trim());
            for (boolean ttl : new boolean[] {false, true}) {
                double[] result = run(rows, steady, ttl);
                System.out.printf(
                        Locale.ROOT,
                        "| %,d | %s | %,.0f | %,d |%n",
                        rows,
                        ttl ? rows + " ms" : "none",
                        result[0],
                        (long) result[1]);
            }
        }
    }

    /** Returns the steady phase's records/s and the rows expired. */
    static double[] run(int rows, int steady, boolean ttl) {
        Materialized<String, Long> store = Materialized.as("counts");
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .count(ttl ? store.withTimeToLive(Duration.ofMillis(rows)) : store)
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults()
                        .withApplicationId("ttl-bench")
                        .withStartTime(Instant.ofEpochMilli(START))
                        .withKeepReadRecords(false))) {
            TestInputTopic<String, String> in = driver.input("events", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            for (int i = 0; i < rows; i++) {
                pipe(in, i);
                if (i % 50_000 == 0) {
                    out.readAll();
                }
            }
            driver.commit();
            out.readAll();
            long started = System.nanoTime();
            for (int i = rows; i < rows + steady; i++) {
                pipe(in, i);
                if (i % 50_000 == 0) {
                    out.readAll();
                }
            }
            driver.commit();
            double seconds = (System.nanoTime() - started) / 1e9;
            out.readAll();
            return new double[] {steady / seconds, driver.metrics().total(WeirMetrics.ROWS_EXPIRED)};
        }
    }

    private static void pipe(TestInputTopic<String, String> in, int i) {
        long t = START + i;
        in.pipe(TestRecord.of("key-" + i, "v").at(t).arrivingAt(t));
    }
}
