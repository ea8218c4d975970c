package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TestDriver#crash()}: a crash between commits takes back what the tasks wrote since the last
 * commit and reads that input again, so the outputs are those of a run without the crash, whatever the
 * stores (RocksDB, in-memory from their changelogs) and however full the caches.
 */
class CrashTest {

    /**
     * "clicks" (user -> page): clicks per user (a table, {@code type} stores) to "per-user", per user and
     * 10 s window with a pane per click to "per-window", and per page (re-keyed through a repartition topic)
     * to "per-page".
     */
    private static Topology clicks(StoreType type) {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()));
        clicks.groupByKey()
                .count(Materialized.<String, Long>as("per-user").withStoreType(type))
                .toStream()
                .to("per-user", Produced.with(Serdes.String(), Serdes.Long()));
        clicks.groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)).withAllowedLateness(Duration.ofSeconds(30)))
                .withTrigger(Trigger.afterCount(1))
                .count(Materialized.<String, Long>as("per-window").withStoreType(type))
                .toStream()
                .to("per-window", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        clicks.groupBy((user, page) -> page, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as("per-page").withStoreType(type))
                .toStream()
                .to("per-page", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    private static TestDriverConfig config(long cacheBytes) {
        return TestDriverConfig.defaults()
                .withPartitions("clicks", 2)
                .withCommitInterval(Duration.ofDays(1))
                .withCacheMaxBytes(cacheBytes);
    }

    @Test
    void aCrashTakesBackWhatWasWrittenSinceTheLastCommitAndReadsThatInputAgain() {
        try (TestDriver driver = new TestDriver(clicks(StoreType.ROCKSDB), config(1 << 20))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> panes =
                    driver.output("per-window", WindowedSerdes.string(), Serdes.Long());
            in.pipe(TestRecord.of("ann", "home").at(1_000));
            driver.commit();
            in.pipe(TestRecord.of("ann", "cart").at(2_000));
            assertEquals(List.of(1L, 2L), values(panes.readAll()), "read before the crash: uncommitted");
            driver.crash();
            assertEquals(List.of(2L), values(panes.readAll()), "the pane again, from the click read again");
            driver.commit();
            assertEquals(Map.of("ann", 2L), driver.table("per-user"));
            assertEquals(
                    List.of(1L, 2L),
                    values(driver.output("per-window", WindowedSerdes.string(), Serdes.Long())
                            .readAll()),
                    "the topic holds each pane once");
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void outputsEqualThoseOfARunWithoutCrashes(StoreType type) {
        long crashes = 0;
        for (long seed = 0; seed < 25; seed++) {
            Random random = new Random(seed);
            // A small cache in some runs: a full cache commits between the test's commits.
            long cacheBytes = random.nextBoolean() ? 1 << 20 : 2_000;
            List<String[]> clicks = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                clicks.add(new String[] {
                    "u" + random.nextInt(5), "p" + random.nextInt(4), Long.toString(1_000L * random.nextInt(40))
                });
            }
            boolean[] commitAfter = new boolean[clicks.size()];
            boolean[] crashAfter = new boolean[clicks.size()];
            for (int i = 0; i < clicks.size(); i++) {
                commitAfter[i] = random.nextInt(5) == 0;
                crashAfter[i] = random.nextInt(8) == 0;
            }
            Outputs expected = run(type, cacheBytes, clicks, commitAfter, new boolean[clicks.size()]);
            Outputs actual = run(type, cacheBytes, clicks, commitAfter, crashAfter);
            assertEquals(expected, actual, type + ", seed " + seed);
            for (boolean c : crashAfter) {
                crashes += c ? 1 : 0;
            }
        }
        assertTrue(crashes > 100, "crashes: " + crashes);
    }

    /** What a run leaves in the topics: the tables' last values, and every window's panes in order. */
    record Outputs(Map<String, Long> perUser, Map<String, Long> perPage, Map<String, List<Long>> panesPerWindow) {}

    private static Outputs run(
            StoreType type, long cacheBytes, List<String[]> clicks, boolean[] commitAfter, boolean[] crashAfter) {
        try (TestDriver driver = new TestDriver(clicks(type), config(cacheBytes))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            for (int i = 0; i < clicks.size(); i++) {
                String[] c = clicks.get(i);
                in.pipe(TestRecord.of(c[0], c[1]).at(Long.parseLong(c[2])));
                if (crashAfter[i]) {
                    driver.crash();
                }
                if (commitAfter[i]) {
                    driver.commit();
                }
            }
            driver.endOfInput();
            Map<String, List<Long>> panes = new TreeMap<>();
            driver.output("per-window", WindowedSerdes.string(), Serdes.Long())
                    .readAll()
                    .forEach(r -> panes.computeIfAbsent(r.key().toString(), w -> new ArrayList<>())
                            .add(r.value()));
            return new Outputs(
                    last(driver.output("per-user", Serdes.String(), Serdes.Long())
                            .readAll()),
                    last(driver.output("per-page", Serdes.String(), Serdes.Long())
                            .readAll()),
                    panes);
        }
    }

    private static Map<String, Long> last(List<OutputRecord<String, Long>> records) {
        Map<String, Long> last = new TreeMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }

    private static List<Long> values(List<OutputRecord<Windowed<String>, Long>> records) {
        return records.stream().map(OutputRecord::value).toList();
    }
}
