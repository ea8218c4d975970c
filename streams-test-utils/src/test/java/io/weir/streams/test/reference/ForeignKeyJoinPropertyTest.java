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
 * Foreign-key joins (inner, left) against the relational join of the two input tables, on random updates
 * (foreign-key changes among them) and deletes of both sides, the left table in two partitions and the
 * right in three, with commits and restarts at random points,
 * RocksDB or in-memory stores, and emission at commit or on every change. No result, even between
 * commits, joins a left row with the right row of another key than its foreign key. At every commit: the join's
 * output applied as upserts equals the relational join; its retracting stream, applied (a retraction
 * removes, a value adds), holds exactly the relational join's rows, so no stale result survives and no
 * result is emitted twice; and a sum over the join's rows kept by {@code groupBy(...).aggregate} with a
 * subtractor, which takes back each change's old value, equals the sum over the relational join.
 */
class ForeignKeyJoinPropertyTest {

    private static final int SEEDS = 40;

    private enum Kind {
        INNER,
        LEFT
    }

    @Test
    void theForeignKeyJoinAppliedAsUpsertsOrWithRetractionsIsTheRelationalJoinAtEveryCommit() {
        int commits = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            commits += run(seed);
        }
        assertTrue(commits > 500, "checked at " + commits + " commits");
    }

    private static int run(long seed) {
        Random random = new Random(seed);
        Kind kind = Kind.values()[random.nextInt(2)];
        boolean inMemory = random.nextBoolean();
        boolean everyChange = random.nextBoolean();
        Map<String, String> left = new TreeMap<>();
        Map<String, String> right = new TreeMap<>();
        String context = "seed " + seed + ": " + kind + (inMemory ? ", in-memory" : ", RocksDB")
                + (everyChange ? ", every change" : ", at commit");
        int commits = 0;
        TestDriverConfig config = TestDriverConfig.defaults()
                .withApplicationId("fk-join-property")
                .withPartitions("left", 2)
                .withPartitions("right", 3)
                .withCommitInterval(Duration.ofDays(1));
        try (TestDriver driver = new TestDriver(topology(kind, inMemory, everyChange), config)) {
            JoinedTableOutputs outputs = new JoinedTableOutputs(driver);
            int steps = 1 + random.nextInt(120);
            for (int step = 0; step < steps; step++) {
                boolean onLeft = random.nextBoolean();
                String key = onLeft ? "k" + random.nextInt(6) : "f" + random.nextInt(4);
                String value = random.nextInt(5) == 0
                        ? null
                        : onLeft
                                ? (random.nextInt(8) == 0 ? "-" : "f" + random.nextInt(4)) + ":L" + random.nextInt(3)
                                : "R" + key + "-" + random.nextInt(5);
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
                    outputs.check(
                            relationalJoin(kind, left, right),
                            context + ", step " + step,
                            r -> assertTrue(
                                    r.value() == null || joinsItsOwnForeignKey(r.value()),
                                    context + ": " + r + " joins a left row with another key's right row"));
                }
                if (random.nextInt(30) == 0) {
                    driver.restart();
                }
            }
        }
        return commits;
    }

    /** Each left row with the right row its foreign key ("-": none) names. */
    private static Map<String, String> relationalJoin(Kind kind, Map<String, String> left, Map<String, String> right) {
        Map<String, String> out = new TreeMap<>();
        left.forEach((key, l) -> {
            String foreignKey = foreignKey(l);
            String r = foreignKey == null ? null : right.get(foreignKey);
            if (r != null || kind == Kind.LEFT) {
                out.put(key, l + "+" + r);
            }
        });
        return out;
    }

    /** Whether a result "left+right" holds the right row of the left row's foreign key (right rows name their key). */
    private static boolean joinsItsOwnForeignKey(String result) {
        String[] sides = result.split("\\+", -1);
        String foreignKey = foreignKey(sides[0]);
        return sides[1].equals("null") || sides[1].startsWith("R" + foreignKey + "-");
    }

    private static @Nullable String foreignKey(String left) {
        String key = left.substring(0, left.indexOf(':'));
        return key.equals("-") ? null : key;
    }

    private static Topology topology(Kind kind, boolean inMemory, boolean everyChange) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> left = builder.table(
                "left", Consumed.with(Serdes.String(), Serdes.String()), store("left-store", inMemory, everyChange));
        Table<String, String> right = builder.table(
                "right", Consumed.with(Serdes.String(), Serdes.String()), store("right-store", inMemory, everyChange));
        Materialized<String, String> result = store("joined-store", inMemory, everyChange);
        Table<String, String> joined = switch (kind) {
            case INNER -> left.join(right, ForeignKeyJoinPropertyTest::foreignKey, (l, r) -> l + "+" + r, result);
            case LEFT -> left.leftJoin(right, ForeignKeyJoinPropertyTest::foreignKey, (l, r) -> l + "+" + r, result);
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
