package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
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
 * The aligned stream–table join's promise, on random data: the output depends only on the data. Each
 * seed makes one table topic (updates out of order within the table's watermark delay) and one stream
 * topic, and pipes them in three random interleavings (each topic's own order kept), with restarts at
 * random points. Every run must give, for each stream record, the version of its key valid at its event
 * time, as a model holding every update computes it; so every run gives the same results.
 */
class AlignedJoinPropertyTest {

    private static final int SEEDS = 40;
    private static final int INTERLEAVINGS = 3;

    private record Input(boolean table, String key, long time, String value) {}

    @Test
    void theResultsAreTheSameForEveryInterleavingAndAreTheVersionsValidAtEachRecordsTime() {
        long joinedWithARow = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            joinedWithARow += run(seed);
        }
        assertTrue(joinedWithARow > 700, "records met versions: " + joinedWithARow);
    }

    private static long run(long seed) {
        Random random = new Random(seed);
        long delay = 1_000L * random.nextInt(4);
        List<Input> table = new ArrayList<>();
        List<Input> stream = new ArrayList<>();
        long tableMax = 0;
        long clock = 0;
        int n = 1 + random.nextInt(80);
        for (int i = 0; i < n; i++) {
            clock += random.nextInt(1_000);
            // Within the delay of the table's highest time, so no update arrives behind its watermark.
            long time = Math.max(0, Math.max(clock, tableMax) - random.nextInt((int) delay + 1));
            tableMax = Math.max(tableMax, time);
            table.add(new Input(true, "k" + random.nextInt(3), time, "v" + i));
            stream.add(new Input(false, "k" + random.nextInt(3), Math.max(0, clock - random.nextInt(5_000)), "s" + i));
        }
        List<String> expected = new ArrayList<>();
        for (Input s : stream) {
            Input version = null;
            for (Input u : table) {
                // The latest by event time at or before the record's; at one time, the later update wins.
                if (u.key().equals(s.key())
                        && u.time() <= s.time()
                        && (version == null || u.time() >= version.time())) {
                    version = u;
                }
            }
            expected.add(s.value() + "@" + s.time() + "=" + (version == null ? "null" : version.value()));
        }
        expected.sort(null);
        long withRow = expected.stream().filter(e -> !e.endsWith("=null")).count();

        for (int run = 0; run < INTERLEAVINGS; run++) {
            List<Input> order = interleave(table, stream, random);
            List<String> actual = new ArrayList<>();
            try (TestDriver driver = new TestDriver(
                    topology(delay, random.nextBoolean()),
                    TestDriverConfig.defaults().withApplicationId("aligned-property"))) {
                for (Input in : order) {
                    driver.input(in.table() ? "prices" : "orders", Serdes.String(), Serdes.String())
                            .pipe(TestRecord.of(in.key(), in.value()).at(in.time()));
                    if (random.nextInt(25) == 0) {
                        driver.restart();
                    }
                }
                driver.endOfInput();
                driver.output("priced", Serdes.String(), Serdes.String())
                        .readAll()
                        .forEach(r -> actual.add(r.value().replace("|", "@" + r.timestamp() + "=")));
            }
            actual.sort(null);
            assertEquals(expected, actual, "seed " + seed + ", interleaving " + run + ", table delay " + delay);
        }
        return withRow;
    }

    /** The two topics merged in a random order that keeps each topic's own order. */
    private static List<Input> interleave(List<Input> a, List<Input> b, Random random) {
        List<Input> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            boolean takeA = j == b.size() || (i < a.size() && random.nextBoolean());
            out.add(takeA ? a.get(i++) : b.get(j++));
        }
        return out;
    }

    private static Topology topology(long tableDelay, boolean inMemory) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table(
                "prices",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(tableDelay))),
                inMemory
                        ? Materialized.<String, String>as("prices")
                                .versioned(Duration.ofDays(1))
                                .inMemory()
                        : Materialized.<String, String>as("prices").versioned(Duration.ofDays(1)));
        Joined<String, String> aligned = Joined.<String, String>aligned().withName("priced");
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .leftJoin(prices, (order, price) -> order + "|" + price, inMemory ? aligned.inMemory() : aligned)
                .to("priced", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }
}
