package io.weir.streams.test;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sliding windows (difference 20 ms) on cases the property suite once found wrong. Results are
 * listed as {@code key@[start, end)=count}.
 */
class SlidingWindowsTest {

    @Test
    void anOutOfOrderRecordCreatesItsRightWindowWithoutEnteringIt() {
        List<String> panes = countOver(Duration.ofMillis(100), driver -> {
            driver.pipe("k", 1L, 10305);
            driver.pipe("k", 1L, 10294);
        });
        assertEquals(List.of("k@[10274, 10295)=1", "k@[10285, 10306)=2", "k@[10295, 10316)=1"), panes);
    }

    @Test
    void aRecordStaysKnownUntilItsRightWindowCloses() {
        List<String> panes = countOver(Duration.ZERO, driver -> {
            driver.pipe("k1", 1L, 10053);
            driver.pipe("k0", 1L, 10074);
            // W = 10073: [10045, 10065] is closed, but 10053's right window [10054, 10074] is not.
            driver.pipe("k1", 1L, 10065);
        });
        assertEquals(List.of("k0@[10054, 10075)=1", "k1@[10033, 10054)=1", "k1@[10054, 10075)=1"), panes);
    }

    private static List<String> countOver(Duration delay, Consumer<TestInputTopic<String, Long>> input) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.Long())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(delay)))
                .groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifference(Duration.ofMillis(20)))
                .count(Materialized.as("counts"))
                .toStream()
                .to("results");
        try (TestDriver driver = new TestDriver(builder.build())) {
            input.accept(driver.input("events", Serdes.String(), Serdes.Long()));
            driver.endOfInput();
            return driver.output("results", WindowedSerdes.string(), Serdes.Long()).readAll().stream()
                    .map(r -> r.key().key() + "@" + r.key().window() + "=" + r.value())
                    .sorted()
                    .toList();
        }
    }
}
