package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GroupedTable;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Tables against the {@link TableReferenceModel} on random inputs: updates, deletes and moves between
 * groups, out-of-order event times, two input partitions, commits and restarts at random points, RocksDB
 * or in-memory stores, emission at commit or on every change. After every commit: a table aggregation's
 * output applied as upserts equals the aggregation of the reference table; a retracting stream of it,
 * summed, equals the sum of the reference aggregates; a stream's count equals the count of its records.
 */
class TablePropertyTest {

    /** Half of them open eight RocksDB stores (two tasks of four stores' operators): some 20 s in all. */
    private static final int SEEDS = 120;

    @Test
    void tableAggregationsAppliedAsUpsertsEqualTheReferenceAtEveryCommit() {
        for (int seed = 0; seed < SEEDS; seed++) {
            run(seed);
        }
    }

    private static void run(long seed) {
        Random random = new Random(seed);
        boolean inMemory = random.nextBoolean();
        boolean everyChange = random.nextBoolean();
        StreamsBuilder builder = new StreamsBuilder();
        Materialized<String, String> source = Materialized.as("profiles-store");
        Table<String, String> profiles = builder.table(
                "profiles", Consumed.with(Serdes.String(), Serdes.String()), inMemory ? source.inMemory() : source);
        GroupedTable<String, String> byRegion = profiles.groupBy((user, region) -> KeyValue.pair(region, user));
        Materialized<String, Long> counts = Materialized.as("users-per-region");
        counts = inMemory ? counts.inMemory() : counts;
        Table<String, Long> perRegion = byRegion.count(everyChange ? counts.withEmitEveryChange() : counts);
        perRegion.toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        Materialized<String, Long> crowded = Materialized.as("crowded-regions");
        perRegion
                .filter((region, users) -> users > 1, inMemory ? crowded.inMemory() : crowded)
                .toStream()
                .to("crowded", Produced.with(Serdes.String(), Serdes.Long()));
        perRegion
                .toStream(Refinement.ACCUMULATING_AND_RETRACTING)
                .to("count-changes", Produced.with(Serdes.String(), Serdes.Long()));
        byRegion.aggregate(
                        () -> 0L,
                        (region, user, sum) -> sum + weight(user),
                        (region, user, sum) -> sum - weight(user),
                        inMemory
                                ? Materialized.<String, Long>as("weight-per-region")
                                        .withValueSerde(Serdes.Long())
                                        .inMemory()
                                : Materialized.<String, Long>as("weight-per-region")
                                        .withValueSerde(Serdes.Long()))
                .toStream()
                .to("sums", Produced.with(Serdes.String(), Serdes.Long()));
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(inMemory ? Materialized.<String, Long>as("clicks").inMemory() : Materialized.as("clicks"))
                .toStream()
                .to("click-counts", Produced.with(Serdes.String(), Serdes.Long()));
        TableReferenceModel model = new TableReferenceModel();
        Map<String, Long> countsSeen = new TreeMap<>();
        Map<String, Long> sumsSeen = new TreeMap<>();
        Map<String, Long> clicksSeen = new TreeMap<>();
        Map<String, Long> crowdedSeen = new TreeMap<>();
        long[] retractedSum = {0};
        String context = "seed " + seed + (inMemory ? ", in-memory" : ", RocksDB")
                + (everyChange ? ", every change" : ", at commit");
        try (TestDriver driver = new TestDriver(
                builder.build(),
                TestDriverConfig.defaults()
                        .withApplicationId("table-property")
                        .withPartitions("profiles", 2)
                        .withPartitions("clicks", 2)
                        .withCommitInterval(Duration.ofDays(1)))) {
            TestInputTopic<String, String> profileIn = driver.input("profiles", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> clickIn = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> countsOut = driver.output("counts", Serdes.String(), Serdes.Long());
            TestOutputTopic<String, Long> changesOut = driver.output("count-changes", Serdes.String(), Serdes.Long());
            TestOutputTopic<String, Long> sumsOut = driver.output("sums", Serdes.String(), Serdes.Long());
            TestOutputTopic<String, Long> clicksOut = driver.output("click-counts", Serdes.String(), Serdes.Long());
            TestOutputTopic<String, Long> crowdedOut = driver.output("crowded", Serdes.String(), Serdes.Long());
            int users = 1 + random.nextInt(8);
            int regions = 1 + random.nextInt(4);
            int steps = 1 + random.nextInt(80);
            for (int step = 0; step < steps; step++) {
                String user = "u" + random.nextInt(users);
                long time = 1_000L * random.nextInt(100);
                if (random.nextInt(4) == 0) {
                    clickIn.pipe(TestRecord.of(user, "/page").at(time));
                    model.click(user);
                } else {
                    String region = random.nextInt(6) == 0 ? null : "r" + random.nextInt(regions);
                    profileIn.pipe(TestRecord.of(user, region).at(time));
                    model.update(user, region);
                }
                int action = random.nextInt(40);
                if (action < 12 || step == steps - 1) {
                    // A restart reopens every task's stores: rarer than a commit, which is cheap.
                    if (action == 0) {
                        driver.restart();
                    } else {
                        driver.commit();
                    }
                    upsert(countsOut, countsSeen);
                    upsert(sumsOut, sumsSeen);
                    upsert(clicksOut, clicksSeen);
                    upsert(crowdedOut, crowdedSeen);
                    for (OutputRecord<String, Long> r : changesOut.readAll()) {
                        if (r.value() != null) {
                            retractedSum[0] += r.header(PaneInfo.RETRACTION_HEADER) != null ? -r.value() : r.value();
                        }
                    }
                    String at = context + ", after step " + step + " of " + steps;
                    assertEquals(model.countBy(region -> region), countsSeen, at + ": counts per region");
                    assertEquals(model.sumBy(TablePropertyTest::weight), sumsSeen, at + ": weights per region");
                    assertEquals(model.streamCounts(), clicksSeen, at + ": clicks per user");
                    Map<String, Long> crowdedExpected = new TreeMap<>(model.countBy(region -> region));
                    crowdedExpected.values().removeIf(count -> count <= 1);
                    assertEquals(crowdedExpected, crowdedSeen, at + ": the materialized filter of the counts");
                    assertEquals((long) model.table().size(), retractedSum[0], at + ": the retracting stream, summed");
                    assertEquals(
                            model.table(),
                            new TreeMap<>(driver.table("profiles-store", Serdes.String(), Serdes.String())),
                            at + ": the source table's store");
                }
            }
        }
    }

    private static long weight(String user) {
        return Long.parseLong(user.substring(1)) + 1;
    }

    private static void upsert(TestOutputTopic<String, Long> out, Map<String, Long> seen) {
        for (OutputRecord<String, Long> r : out.readAll()) {
            if (r.value() == null) {
                seen.remove(r.key());
            } else {
                seen.put(r.key(), r.value());
            }
        }
    }
}
