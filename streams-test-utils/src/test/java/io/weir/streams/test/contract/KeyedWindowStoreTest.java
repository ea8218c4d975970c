package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.state.WindowStore;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A keyed processor's window store: values by key and time, scanned by time range, purged once the
 * watermark passes their time plus the retention, changelogged and restored like any store.
 */
class KeyedWindowStoreTest {

    /** Keeps each click by (user, time); on "?" emits the user's clicks of the last 20 s and every user's. */
    static final class RecentClicks implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String user, String page, KeyedProcessorContext<String, String, String> ctx) {
            WindowStore<String, String> clicks = ctx.windowStore("clicks");
            if (!page.equals("?")) {
                clicks.put(user, page, ctx.eventTime());
                return;
            }
            List<String> mine = new ArrayList<>();
            clicks.fetch(user, ctx.eventTime() - 20_000, ctx.eventTime(), (k, t, v) -> mine.add(v + "@" + t));
            List<String> all = new ArrayList<>();
            clicks.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE, (k, t, v) -> all.add(k + ":" + v));
            ctx.forward(user, String.join(",", mine) + " | " + String.join(",", all));
        }
    }

    private static TestDriver driver(StoreType type) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "clicks",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .process(
                        RecentClicks::new,
                        Named.as("recent"),
                        Materialized.<String, String>as("clicks")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String())
                                .withStoreType(type)
                                .withRetention(Duration.ofSeconds(30)))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build());
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void entriesAreScannedByTimeAndPurgedOnceTheWatermarkPassesTheirRetention(StoreType type) {
        try (TestDriver driver = driver(type)) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("out", Serdes.String(), Serdes.String());
            in.pipe("ann", "home", 1_000);
            in.pipe("bob", "cart", 2_000);
            in.pipe("ann", "shop", 15_000);
            in.pipe("ann", "?", 25_000);
            assertEquals(List.of("shop@15000 | ann:home,bob:cart,ann:shop"), out.readValues(), "W = 24 999");
            in.pipe("carl", "cart", 32_000);
            in.pipe("bob", "?", 33_000);
            assertEquals(
                    List.of(" | bob:cart,ann:shop,carl:cart"),
                    out.readValues(),
                    "W = 31 999 passed 1 000 + 30 000: ann's first click is gone, bob's (2 000) is not yet");
            in.pipe("ann", "late", 1_500);
            assertEquals(1, driver.metrics().get("clicks", WeirMetrics.EXPIRED_PUTS_DROPPED));
            driver.restart();
            in.pipe("ann", "?", 40_000);
            assertEquals(
                    List.of(" | ann:shop,carl:cart"),
                    out.readValues(),
                    "restored with W = 32 999: bob's click purged, the expired put at 1 500 was dropped");
        }
    }

    @Test
    void aWindowStoreIsReadWithWindowStoreAndNothingElse() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(
                        () -> (KeyedProcessor<String, String, String, String>) (k, v, ctx) -> ctx.store("clicks"),
                        Materialized.<String, String>as("clicks")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String())
                                .withRetention(Duration.ofSeconds(30)))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            Exception e = assertThrows(
                    Exception.class,
                    () -> driver.input("clicks", Serdes.String(), Serdes.String())
                            .pipe(TestRecord.of("a", "b")));
            assertTrue(e.getCause().getMessage().contains("read those with windowStore(name)"), e.getMessage());
        }
        StreamsBuilder windowed = new StreamsBuilder();
        IllegalStateException refused = assertThrows(
                IllegalStateException.class,
                () -> windowed.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupByKey()
                        .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                        .count(Materialized.<String, Long>as("counts").withRetention(Duration.ofSeconds(5))));
        assertTrue(refused.getMessage().contains("withRetention is for keyed processors"), refused.getMessage());
    }
}
