package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table–table joins (inner, left, outer) against the relational join of the two input tables, on random
 * updates and deletes of both sides in two partitions, with commits and restarts at random points,
 * RocksDB or in-memory stores, and emission at commit or on every change. At every commit: the join's
 * output applied as upserts equals the relational join; its retracting stream, applied (a retraction
 * removes, a value adds), holds exactly the relational join's rows, so no stale result survives and no
 * result is emitted twice; and a sum over the join's rows kept by {@code groupBy(...).aggregate} with a
 * subtractor, which takes back each change's old value, equals the sum over the relational join.
 */
class TableJoinPropertyTest {

    private static final int SEEDS = 50;

    private enum Kind {
        INNER,
        LEFT,
        OUTER
    }

    @Test
    void theJoinAppliedAsUpsertsOrWithRetractionsIsTheRelationalJoinAtEveryCommit() {
        int commits = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            commits += run(seed);
        }
        assertTrue(commits > 600, "checked at " + commits + " commits");
    }

    private static int run(long seed) {
        Random random = new Random(seed);
        Kind kind = Kind.values()[random.nextInt(3)];
        boolean inMemory = random.nextBoolean();
        boolean everyChange = random.nextBoolean();
        Map<String, String> left = new TreeMap<>();
        Map<String, String> right = new TreeMap<>();
        String context = "seed " + seed + ": " + kind + (inMemory ? ", in-memory" : ", RocksDB")
                + (everyChange ? ", every change" : ", at commit");
        int commits = 0;
        TestDriverConfig config = TestDriverConfig.defaults()
                .withApplicationId("table-join-property")
                .withPartitions("left", 2)
                .withPartitions("right", 2)
                .withCommitInterval(Duration.ofDays(1));
        try (TestDriver driver = new TestDriver(topology(kind, inMemory, everyChange), config)) {
            JoinedTableOutputs outputs = new JoinedTableOutputs(driver);
            int steps = 1 + random.nextInt(120);
            for (int step = 0; step < steps; step++) {
                boolean onLeft = random.nextBoolean();
                String key = "k" + random.nextInt(6);
                String value = random.nextInt(4) == 0 ? null : (onLeft ? "L" : "R") + random.nextInt(5);
                Map<String, String> side = onLeft ? left : right;
                if (value == null) {
                    side.remove(key);
                } else {
                    side.put(key, value);
                }
                driver.input(onLeft ? "left" : "right", Serdes.String(), Serdes.String())
                        .pipe(TestRecord.of(key, value).at(1_000L * step));
                if (random.nextInt(4) == 0 || step == steps - 1) {
                    driver.commit();
                    commits++;
                    outputs.check(relationalJoin(kind, left, right), context + ", step " + step, r -> {});
                }
                if (random.nextInt(30) == 0) {
                    driver.restart();
                }
            }
        }
        return commits;
    }

    private static Map<String, String> relationalJoin(Kind kind, Map<String, String> left, Map<String, String> right) {
        Map<String, String> out = new TreeMap<>();
        Map<String, String> all = new TreeMap<>(left);
        right.forEach(all::putIfAbsent);
        for (String key : all.keySet()) {
            String l = left.get(key);
            String r = right.get(key);
            boolean row =
                    (l != null && r != null) || (l != null && kind != Kind.INNER) || (r != null && kind == Kind.OUTER);
            if (row) {
                out.put(key, l + "+" + r);
            }
        }
        return out;
    }

    private static Topology topology(Kind kind, boolean inMemory, boolean everyChange) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> left = builder.table(
                "left", Consumed.with(Serdes.String(), Serdes.String()), store("left-store", inMemory, everyChange));
        Table<String, String> right = builder.table(
                "right", Consumed.with(Serdes.String(), Serdes.String()), store("right-store", inMemory, everyChange));
        Materialized<String, String> result = store("joined-store", inMemory, everyChange);
        Table<String, String> joined = switch (kind) {
            case INNER -> left.join(right, (l, r) -> l + "+" + r, result);
            case LEFT -> left.leftJoin(right, (l, r) -> l + "+" + r, result);
            case OUTER -> left.outerJoin(right, (@Nullable String l, @Nullable String r) -> l + "+" + r, result);
        };
        JoinedTableOutputs.writeOutputs(joined);
        return builder.build();
    }

    private static Materialized<String, String> store(String name, boolean inMemory, boolean everyChange) {
        Materialized<String, String> store = Materialized.as(name);
        store = inMemory ? store.inMemory() : store;
        return everyChange ? store.withEmitEveryChange() : store;
    }
}
