package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.VersionedKeyValueStore;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Versioned tables against a brute-force model on random out-of-order updates and deletes, with
 * restarts and RocksDB or in-memory stores: the model keeps every version it accepted, forever, and
 * answers "the value at time t" by scanning them. Weir must agree for every time within the history
 * retention behind the watermark, and its output applied as upserts must equal the model's latest
 * values at every commit.
 */
class VersionedTablePropertyTest {

    private static final int SEEDS = 120;

    @Test
    void readsAtAnyTimeWithinTheRetentionAndTheEmittedLatestValuesEqualTheModels() {
        long historyReads = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            historyReads += run(seed);
        }
        assertTrue(historyReads > 1_000, "reads answered from the history: " + historyReads);
    }

    /** Runs one seed; returns how many reads found a version older than the latest. */
    private static long run(long seed) {
        Random random = new Random(seed);
        long retention = 1_000L * (1 + random.nextInt(20));
        long delay = 1_000L * random.nextInt(4);
        boolean inMemory = random.nextBoolean();
        Materialized<String, String> store =
                Materialized.<String, String>as("versions").versioned(Duration.ofMillis(retention));
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                        "updates",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(delay))),
                        inMemory ? store.inMemory() : store)
                .toStream()
                .to("latest", Produced.with(Serdes.String(), Serdes.String()));
        String context = "seed " + seed + ": retention " + retention + ", delay " + delay
                + (inMemory ? ", in-memory" : ", RocksDB");

        Map<String, NavigableMap<Long, String>> versions = new HashMap<>();
        Map<String, String> emitted = new TreeMap<>();
        long watermark = Long.MIN_VALUE;
        long maxSeen = Long.MIN_VALUE;
        long clock = 0;
        long historyReads = 0;
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("versions").withCommitInterval(Duration.ofDays(1)))) {
            TestInputTopic<String, String> in = driver.input("updates", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("latest", Serdes.String(), Serdes.String());
            int n = 1 + random.nextInt(100);
            for (int i = 0; i < n; i++) {
                clock += random.nextInt(1_500);
                long time = Math.max(0, clock - random.nextInt(10_000));
                String key = "k" + random.nextInt(4);
                String value = random.nextInt(6) == 0 ? null : "v" + i;
                in.pipe(TestRecord.of(key, value).at(time));
                if (watermark == Long.MIN_VALUE || time + retention > watermark) {
                    versions.computeIfAbsent(key, k -> new TreeMap<>()).put(time, value == null ? "" : value);
                }
                maxSeen = Math.max(maxSeen, time);
                watermark = Math.max(watermark, maxSeen - delay - 1);

                if (random.nextInt(30) == 0) {
                    driver.restart();
                }
                VersionedKeyValueStore<String, String> table =
                        driver.versionedTable("versions", Serdes.String(), Serdes.String());
                for (int q = 0; q < 5; q++) {
                    String k = "k" + random.nextInt(4);
                    long from = Math.max(0, watermark - retention + 1);
                    long asOf = from + random.nextInt((int) Math.max(1, clock + 5_000 - from));
                    String expected = valueAt(versions.get(k), asOf);
                    assertEquals(
                            expected, table.get(k, asOf), context + ", after update " + i + ": " + k + " at " + asOf);
                    NavigableMap<Long, String> all = versions.get(k);
                    if (expected != null && all != null && all.lastKey() > asOf) {
                        historyReads++;
                    }
                }
                if (random.nextInt(5) == 0 || i == n - 1) {
                    driver.commit();
                    for (OutputRecord<String, String> r : out.readAll()) {
                        if (r.value() == null) {
                            emitted.remove(r.key());
                        } else {
                            emitted.put(r.key(), r.value());
                        }
                    }
                    Map<String, String> latest = new TreeMap<>();
                    versions.forEach((k, byTime) -> {
                        String v = byTime.lastEntry().getValue();
                        if (!v.isEmpty()) {
                            latest.put(k, v);
                        }
                    });
                    assertEquals(latest, emitted, context + ", after update " + i + ": the emitted latest values");
                }
            }
        }
        return historyReads;
    }

    private static String valueAt(NavigableMap<Long, String> byTime, long asOf) {
        if (byTime == null) {
            return null;
        }
        Map.Entry<Long, String> version = byTime.floorEntry(asOf);
        return version == null || version.getValue().isEmpty() ? null : version.getValue();
    }
}
