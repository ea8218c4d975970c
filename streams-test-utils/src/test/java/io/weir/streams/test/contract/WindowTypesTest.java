package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each window type and aggregation on hand-drawn timelines, on both store types. */
class WindowTypesTest {

    /** Runs "in" (String -> Integer values, delay 0) through {@code aggregation}, pipes (key, time, value) triples, ends the input. */
    private static Map<Window, Long> run(
            Function<GroupedStream<String, Integer>, WindowedTable<String, ?>> aggregation, long[][] records) {
        StreamsBuilder builder = new StreamsBuilder();
        GroupedStream<String, Integer> grouped = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.Integer())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey();
        @SuppressWarnings("unchecked")
        var table = (WindowedTable<String, Long>) aggregation.apply(grouped);
        table.toStream().to("out");
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, Integer> in = driver.input("in", Serdes.String(), Serdes.Integer());
            for (long[] r : records) {
                in.pipe("a", (int) r[1], r[0]);
            }
            driver.endOfInput();
            Map<Window, Long> last = new LinkedHashMap<>();
            for (OutputRecord<Windowed<String>, Long> r :
                    driver.output("out", WindowedSerdes.string(), Serdes.Long()).readAll()) {
                assertEquals(
                        PaneInfo.Timing.ON_TIME, r.pane().orElseThrow().timing(), "in-order input: on-time panes only");
                last.put(r.key().window(), r.value());
            }
            return last;
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void tumblingCount(StoreType type) {
        Map<Window, Long> result = run(
                g -> g.windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                        .count(Materialized.<String, Long>as("counts").withStoreType(type)),
                new long[][] {{1_000, 1}, {9_999, 1}, {10_000, 1}});
        assertEquals(Map.of(new Window(0, 10_000), 2L, new Window(10_000, 20_000), 1L), result);
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void hoppingCountPutsARecordInEveryWindowThatCoversIt(StoreType type) {
        Map<Window, Long> result = run(
                g -> g.windowedBy(HoppingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                        .count(Materialized.<String, Long>as("counts").withStoreType(type)),
                new long[][] {{7_000, 1}, {12_000, 1}});
        assertEquals(
                Map.of(new Window(0, 10_000), 1L, new Window(5_000, 15_000), 2L, new Window(10_000, 20_000), 1L),
                result);
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void hoppingWindowsAlignToTheEpochEvenBeforeIt(StoreType type) {
        Map<Window, Long> result = run(
                g -> g.windowedBy(HoppingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(4)))
                        .count(Materialized.<String, Long>as("counts").withStoreType(type)),
                new long[][] {{2_000, 1}});
        // Starts are multiples of 4 s with start <= 2 s < start + 10 s: -4 s and 0 s ([-8 s, 2 s) ends before 2 s).
        assertEquals(Map.of(new Window(-4_000, 6_000), 1L, new Window(0, 10_000), 1L), result);
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void slidingCountHasOneWindowPerDistinctSetOfRecordsWithinTheTimeDifference(StoreType type) {
        // d = 10 000 ms; records at 1 000, 5 000, 12 000. Kafka Streams' windows, bounds inclusive:
        // left of 1 000 [-9 000, 1 000] = {1 000}; left of 5 000 [-5 000, 5 000] = {1 000, 5 000};
        // right of 1 000 [1 001, 11 001] = {5 000}; left of 12 000 [2 000, 12 000] = {5 000, 12 000};
        // right of 5 000 [5 001, 15 001] = {12 000}; 12 000 has no successor, so no right window.
        Map<Window, Long> result = run(
                g -> g.windowedBy(SlidingWindows.ofTimeDifference(Duration.ofSeconds(10)))
                        .count(Materialized.<String, Long>as("counts").withStoreType(type)),
                new long[][] {{1_000, 1}, {5_000, 1}, {12_000, 1}});
        assertEquals(
                Map.of(
                        new Window(-9_000, 1_001),
                        1L,
                        new Window(-5_000, 5_001),
                        2L,
                        new Window(1_001, 11_002),
                        1L,
                        new Window(2_000, 12_001),
                        2L,
                        new Window(5_001, 15_002),
                        1L),
                result);
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void reduceAndAggregateFoldTheValues(StoreType type) {
        Map<Window, Long> sums = run(
                g -> g.windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                        .aggregate(
                                () -> 0L,
                                (k, v, sum) -> sum + v,
                                Materialized.<String, Long>as("sums")
                                        .withValueSerde(Serdes.Long())
                                        .withStoreType(type)),
                new long[][] {{1_000, 5}, {2_000, 7}, {15_000, 1}});
        assertEquals(Map.of(new Window(0, 10_000), 12L, new Window(10_000, 20_000), 1L), sums);
    }
}
