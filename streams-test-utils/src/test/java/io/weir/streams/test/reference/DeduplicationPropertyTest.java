package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code deduplicate} against a brute-force model on random out-of-order streams, with restarts at
 * random points and RocksDB or in-memory stores. The model never forgets a record that passed and
 * compares each record with all of them; Weir forgets ids as the watermark passes them. They must pass,
 * drop and refuse exactly the same records: forgetting never changes a judgement.
 */
class DeduplicationPropertyTest {

    private static final int SEEDS = 200;

    /** One input record: its key, id (null: none), event time, and a serial number as its value. */
    private record Input(String key, String id, long time, String serial) {}

    @Test
    void weirPassesDropsAndRefusesExactlyWhatAModelThatNeverForgetsDoes() {
        long judgedRepeats = 0;
        long refusedLate = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            long[] counts = run(seed);
            judgedRepeats += counts[0];
            refusedLate += counts[1];
        }
        assertTrue(
                judgedRepeats > 500 && refusedLate > 100,
                "the streams exercised both rules: " + judgedRepeats + " repeats, " + refusedLate + " late records");
    }

    /** Runs one seed; returns the model's repeats and late records. */
    private static long[] run(long seed) {
        Random random = new Random(seed);
        long within = 1_000L * (1 + random.nextInt(10));
        long delay = 1_000L * random.nextInt(5);
        long lateness = random.nextBoolean() ? 0 : 1_000L * random.nextInt(10);
        boolean inMemory = random.nextBoolean();
        Deduplicated<String> settings = Deduplicated.with(Serdes.String())
                .withName("seen")
                .withAllowedLateness(Duration.ofMillis(lateness))
                .withLateRecordsTo("late");
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(delay))))
                .deduplicate(
                        (key, value) -> value.startsWith("-") ? null : value.substring(0, value.indexOf('#')),
                        Duration.ofMillis(within),
                        inMemory ? settings.inMemory() : settings)
                .to("unique", Produced.with(Serdes.String(), Serdes.String()));

        List<Input> inputs = new ArrayList<>();
        int n = 1 + random.nextInt(120);
        long clock = 0;
        for (int i = 0; i < n; i++) {
            clock += random.nextInt(1_500);
            long time = Math.max(0, clock - random.nextInt(8_000));
            String id = random.nextInt(12) == 0 ? null : "id" + random.nextInt(6);
            inputs.add(new Input("k" + random.nextInt(2), id, time, Integer.toString(i)));
        }

        List<String> expectedPassed = new ArrayList<>();
        List<String> expectedLate = new ArrayList<>();
        List<Input> passed = new ArrayList<>();
        long repeats = 0;
        long watermark = Long.MIN_VALUE;
        long maxSeen = Long.MIN_VALUE;
        for (Input in : inputs) {
            if (watermark >= in.time() + lateness) {
                expectedLate.add(in.serial());
            } else if (in.id() == null) {
                expectedPassed.add(in.serial());
            } else if (passed.stream()
                    .anyMatch(p -> p.key().equals(in.key())
                            && in.id().equals(p.id())
                            && Math.abs(p.time() - in.time()) <= within)) {
                repeats++;
            } else {
                passed.add(in);
                expectedPassed.add(in.serial());
            }
            maxSeen = Math.max(maxSeen, in.time());
            watermark = Math.max(watermark, maxSeen - delay - 1);
        }

        String context = "seed " + seed + ": within " + within + ", delay " + delay + ", lateness " + lateness
                + (inMemory ? ", in-memory" : ", RocksDB");
        List<String> actualPassed = new ArrayList<>();
        List<String> actualLate = new ArrayList<>();
        long dropped = 0;
        try (TestDriver driver =
                new TestDriver(builder.build(), TestDriverConfig.defaults().withApplicationId("dedup-property"))) {
            TestInputTopic<String, String> events = driver.input("events", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> unique = driver.output("unique", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> late = driver.output("late", Serdes.String(), Serdes.String());
            for (Input in : inputs) {
                String value = (in.id() == null ? "-" : in.id()) + "#" + in.serial();
                events.pipe(TestRecord.of(in.key(), value).at(in.time()));
                if (random.nextInt(25) == 0) {
                    // A restart opens new tasks, whose metrics start from zero.
                    dropped += driver.metrics().total(WeirMetrics.DUPLICATES_DROPPED);
                    driver.restart();
                }
            }
            for (OutputRecord<String, String> r : unique.readAll()) {
                actualPassed.add(r.value().substring(r.value().indexOf('#') + 1));
            }
            for (OutputRecord<String, String> r : late.readAll()) {
                actualLate.add(r.value().substring(r.value().indexOf('#') + 1));
            }
            dropped += driver.metrics().total(WeirMetrics.DUPLICATES_DROPPED);
            assertEquals(repeats, dropped, context + ": repeats");
        }
        assertEquals(expectedPassed, actualPassed, context + ": passed");
        assertEquals(expectedLate, actualLate, context + ": late");
        return new long[] {repeats, expectedLate.size()};
    }
}
