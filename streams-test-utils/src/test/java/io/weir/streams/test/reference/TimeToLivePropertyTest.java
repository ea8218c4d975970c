package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An event-time time-to-live against a brute-force model on random out-of-order streams, with commits
 * and restarts at random points and RocksDB or in-memory stores: after every commit, a count per key
 * with a TTL, applied as upserts, equals the model's, which after every record drops each row whose
 * event time the watermark passed by the TTL, scanning every row.
 */
class TimeToLivePropertyTest {

    private static final int SEEDS = 120;

    /** A model row: the count and the largest event time of the records counted since it was created. */
    private record Row(long count, long time) {}

    @Test
    void aCountWithATtlAppliedAsUpsertsEqualsTheModelAtEveryCommit() {
        long expired = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            expired += run(seed);
        }
        assertTrue(expired > 200, "rows expired across the seeds: " + expired);
    }

    private static long run(long seed) {
        Random random = new Random(seed);
        long ttl = 1_000L * (1 + random.nextInt(20));
        long delay = 1_000L * random.nextInt(5);
        boolean inMemory = random.nextBoolean();
        Materialized<String, Long> store =
                Materialized.<String, Long>as("counts").withTimeToLive(Duration.ofMillis(ttl));
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(delay))))
                .groupByKey()
                .count(inMemory ? store.inMemory() : store)
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        String context =
                "seed " + seed + ": ttl " + ttl + ", delay " + delay + (inMemory ? ", in-memory" : ", RocksDB");

        Map<String, Row> model = new TreeMap<>();
        Map<String, Long> seen = new TreeMap<>();
        long watermark = Long.MIN_VALUE;
        long maxSeen = Long.MIN_VALUE;
        long clock = 0;
        long expired = 0;
        try (TestDriver driver =
                new TestDriver(builder.build(), TestDriverConfig.defaults().withApplicationId("ttl-property"))) {
            TestInputTopic<String, String> in = driver.input("events", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            int n = 1 + random.nextInt(100);
            for (int i = 0; i < n; i++) {
                clock += random.nextInt(2_000);
                long time = Math.max(0, clock - random.nextInt(6_000));
                String key = "k" + random.nextInt(5);
                in.pipe(TestRecord.of(key, "v").at(time));

                Row row = model.get(key);
                Row next = row == null ? new Row(1, time) : new Row(row.count() + 1, Math.max(row.time(), time));
                if (next.time() + ttl <= watermark) {
                    model.remove(key);
                    expired++;
                } else {
                    model.put(key, next);
                }
                maxSeen = Math.max(maxSeen, time);
                watermark = Math.max(watermark, maxSeen - delay - 1);
                long w = watermark;
                int before = model.size();
                model.values().removeIf(r -> r.time() + ttl <= w);
                expired += before - model.size();

                int action = random.nextInt(25);
                if (action < 8 || i == n - 1) {
                    if (action == 0) {
                        driver.restart();
                    } else {
                        driver.commit();
                    }
                    for (OutputRecord<String, Long> r : out.readAll()) {
                        if (r.value() == null) {
                            seen.remove(r.key());
                        } else {
                            seen.put(r.key(), r.value());
                        }
                    }
                    Map<String, Long> expected = new TreeMap<>();
                    model.forEach((k, r) -> expected.put(k, r.count()));
                    assertEquals(expected, seen, context + ", after record " + i + " of " + n);
                }
            }
        }
        return expired;
    }
}
