package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stream joined with a table, one test per rule: latest joins the row held when the record is
 * processed; as-of the version valid at the record's event time; aligned waits for the table's watermark,
 * so its output does not depend on how the topics interleave, and survives a restart while records wait;
 * table idleness releases waiting records; a record older than the table's history goes to the side
 * output with its reason; inner drops and counts misses and null keys, left joins them with null; a key
 * change repartitions; a filtered or aggregated table is read through its view; mistakes are refused at
 * build time.
 */
class StreamTableJoinTest {

    private static final Duration RETENTION = Duration.ofMinutes(10);

    /** Orders (order id -> item) joined with prices (item -> price), the result "item@price" keyed by item. */
    private static TestDriver orders(Joined<String, String> joined, boolean left, Duration tableIdleness) {
        StreamsBuilder builder = new StreamsBuilder();
        WatermarkStrategy tableTime = WatermarkStrategy.forMonotonousTimestamps();
        Table<String, String> prices = builder.table(
                "prices",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(tableIdleness.isZero() ? tableTime : tableTime.withIdleness(tableIdleness)),
                Materialized.<String, String>as("price-store").versioned(RETENTION));
        EventStream<String, String> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> joined2 = left
                ? orders.leftJoin(prices, (item, price) -> item + "@" + price, joined)
                : orders.join(prices, (item, price) -> item + "@" + price, joined);
        joined2.to("priced", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withCommitInterval(Duration.ofDays(1)));
    }

    private static TestDriver orders(Joined<String, String> joined) {
        return orders(joined, false, Duration.ZERO);
    }

    private static void price(TestDriver driver, String item, String price, long time) {
        driver.input("prices", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(item, price).at(time));
    }

    private static void order(TestDriver driver, String item, long time) {
        driver.input("orders", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(item, item).at(time));
    }

    private static TestOutputTopic<String, String> priced(TestDriver driver) {
        return driver.output("priced", Serdes.String(), Serdes.String());
    }

    @Test
    void latestJoinsTheRowTheTableHoldsWhenTheRecordIsProcessedAndKeepsKeyTimeAndHeaders() {
        try (TestDriver driver = orders(Joined.latest())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            driver.input("orders", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("tea", "tea")
                            .at(5_000)
                            .withHeader("trace", "t-1".getBytes(StandardCharsets.UTF_8)));
            price(driver, "tea", "4", 20_000);
            order(driver, "tea", 1_000);
            List<OutputRecord<String, String>> joined = out.readAll();
            assertEquals(
                    List.of("tea@3", "tea@4"),
                    joined.stream().map(OutputRecord::value).toList(),
                    "the row held at processing, whatever the record's event time");
            assertEquals("tea", joined.get(0).key());
            assertEquals(5_000, joined.get(0).timestamp());
            assertEquals("t-1", joined.get(0).header("trace"));
        }
    }

    @Test
    void asOfJoinsTheVersionValidAtTheRecordsEventTime() {
        try (TestDriver driver = orders(Joined.asOf())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            price(driver, "tea", "4", 20_000);
            order(driver, "tea", 15_000);
            order(driver, "tea", 25_000);
            order(driver, "tea", 5_000);
            assertEquals(List.of("tea@3", "tea@4"), out.readValues(), "before the first version there is no row");
            assertEquals(1, driver.metrics().total(WeirMetrics.JOIN_MISSES));
        }
    }

    @Test
    void asOfNeedsAVersionedTable() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> orders.join(prices, (o, p) -> o + p, Joined.<String, String>aligned()));
        assertTrue(e.getMessage().contains("versioned"), e.getMessage());
    }

    @Test
    void settingsTheModeDoesNotUseAreRefused() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table(
                "prices",
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as("price-store").versioned(RETENTION));
        EventStream<String, String> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        IllegalStateException inMemory = assertThrows(
                IllegalStateException.class,
                () -> orders.join(
                        prices, (o, p) -> o + p, Joined.<String, String>asOf().inMemory()));
        assertTrue(inMemory.getMessage().contains("inMemory()"), inMemory.getMessage());
        IllegalStateException late = assertThrows(
                IllegalStateException.class,
                () -> orders.join(
                        prices, (o, p) -> o + p, Joined.<String, String>latest().withLateRecordsTo("late")));
        assertTrue(late.getMessage().contains("withLateRecordsTo"), late.getMessage());
    }

    @Test
    void alignedWaitsUntilTheTablesWatermarkReachesTheRecord() {
        try (TestDriver driver = orders(Joined.aligned())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            order(driver, "tea", 15_000);
            assertEquals(List.of(), out.readValues(), "the table's watermark (9,999) has not reached 15,000");
            assertEquals(1, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS));
            price(driver, "tea", "4", 14_000);
            assertEquals(List.of(), out.readValues(), "still below 15,000");
            price(driver, "coffee", "2", 15_001);
            assertEquals(
                    List.of("tea@4"), out.readValues(), "the version valid at 15,000, which arrived after the order");
            assertEquals(0, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS));
            order(driver, "tea", 12_000);
            assertEquals(List.of("tea@3"), out.readValues(), "reached already: joined at once, as of 12,000");
        }
    }

    @Test
    void alignedGivesTheSameResultsWhateverOrderTheTwoTopicsArriveIn() {
        List<String> tableFirst;
        try (TestDriver driver = orders(Joined.aligned())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            price(driver, "tea", "4", 20_000);
            price(driver, "tea", "5", 30_000);
            order(driver, "tea", 15_000);
            order(driver, "tea", 25_000);
            driver.endOfInput();
            tableFirst = out.readValues();
        }
        List<String> streamFirst;
        try (TestDriver driver = orders(Joined.aligned())) {
            TestOutputTopic<String, String> out = priced(driver);
            order(driver, "tea", 15_000);
            order(driver, "tea", 25_000);
            price(driver, "tea", "3", 10_000);
            price(driver, "tea", "4", 20_000);
            price(driver, "tea", "5", 30_000);
            driver.endOfInput();
            streamFirst = out.readValues();
        }
        assertEquals(List.of("tea@3", "tea@4"), tableFirst);
        assertEquals(tableFirst, streamFirst);
    }

    @Test
    void alignedRecordsWaitingSurviveARestart() {
        try (TestDriver driver = orders(Joined.aligned())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            order(driver, "tea", 15_000);
            driver.restart();
            assertEquals(1, driver.metrics().total(WeirMetrics.JOIN_BUFFERED_RECORDS), "restored from its changelog");
            price(driver, "tea", "4", 16_000);
            assertEquals(List.of("tea@3"), out.readValues());
        }
    }

    @Test
    void anIdleTableReleasesTheRecordsWaitingForIt() {
        try (TestDriver driver = orders(Joined.aligned(), false, Duration.ofSeconds(30))) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            order(driver, "tea", 15_000);
            assertEquals(List.of(), out.readValues());
            driver.advanceTime(Duration.ofSeconds(31));
            assertEquals(List.of("tea@3"), out.readValues(), "the table went idle: joined with what it holds");
            order(driver, "tea", 40_000);
            assertEquals(List.of("tea@3"), out.readValues(), "while it is idle, joined at once");
        }
    }

    @Test
    void aRecordOlderThanTheTablesHistoryGoesToTheSideOutputWithItsReason() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table(
                "prices",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()),
                Materialized.<String, String>as("price-store").versioned(RETENTION));
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .join(
                        prices,
                        (o, p) -> o + "@" + p,
                        Joined.<String, String>asOf().withLateRecordsTo("too-old"))
                .to("priced", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 0);
            price(driver, "tea", "4", RETENTION.toMillis() + 1);
            order(driver, "tea", 0);
            order(driver, "tea", 1);
            assertEquals(List.of("tea@3"), out.readValues(), "1 + retention is past the table's watermark; 0 is not");
            List<OutputRecord<String, String>> late =
                    driver.output("too-old", Serdes.String(), Serdes.String()).readAll();
            assertEquals(1, late.size());
            assertEquals(
                    LateRecord.Reason.BEFORE_TABLE_HISTORY.name(), late.get(0).header(LateRecord.REASON_HEADER));
            assertEquals(Long.toString(RETENTION.toMillis()), late.get(0).header(LateRecord.WATERMARK_HEADER));
            assertEquals(1, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void anInnerJoinDropsAndCountsMissesAndNullKeysAndALeftJoinJoinsThemWithNull() {
        for (boolean left : new boolean[] {false, true}) {
            try (TestDriver driver = orders(Joined.latest(), left, Duration.ZERO)) {
                TestOutputTopic<String, String> out = priced(driver);
                price(driver, "tea", "3", 1_000);
                order(driver, "coffee", 2_000);
                driver.input("orders", Serdes.String(), Serdes.String()).pipe(TestRecord.of(null, "x"));
                order(driver, "tea", 3_000);
                assertEquals(left ? List.of("coffee@null", "x@null", "tea@3") : List.of("tea@3"), out.readValues());
                assertEquals(1, driver.metrics().total(WeirMetrics.JOIN_MISSES));
                assertEquals(1, driver.metrics().total(WeirMetrics.NULL_JOIN_KEYS));
            }
        }
    }

    @Test
    void aChangedKeyIsRepartitionedBeforeTheJoin() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()));
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((orderId, item) -> item)
                .join(prices, (item, price) -> item + "@" + price)
                .to("priced", Produced.with(Serdes.String(), Serdes.String()));
        TestDriverConfig config =
                TestDriverConfig.defaults().withPartitions("orders", 3).withPartitions("prices", 4);
        try (TestDriver driver = new TestDriver(builder.build(), config)) {
            TestOutputTopic<String, String> out = priced(driver);
            TestInputTopic<String, String> priceInput = driver.input("prices", Serdes.String(), Serdes.String());
            for (String item : List.of("tea", "coffee", "cake", "milk")) {
                priceInput.pipe(item, item.length() + "");
            }
            TestInputTopic<String, String> orderInput = driver.input("orders", Serdes.String(), Serdes.String());
            for (int i = 0; i < 8; i++) {
                orderInput.pipe(
                        "order-" + i, List.of("tea", "coffee", "cake", "milk").get(i % 4));
            }
            List<OutputRecord<String, String>> joined = out.readAll();
            assertEquals(8, joined.size());
            for (OutputRecord<String, String> r : joined) {
                assertEquals(r.key() + "@" + r.key().length(), r.value(), "keyed by item, joined with its price");
            }
        }
    }

    @Test
    void aStreamAndATableWithDifferentPartitionCountsAreRefused() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()));
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .join(prices, (item, price) -> item + "@" + price)
                .to("priced", Produced.with(Serdes.String(), Serdes.String()));
        TestDriverConfig config =
                TestDriverConfig.defaults().withPartitions("orders", 3).withPartitions("prices", 4);
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> new TestDriver(builder.build(), config));
        assertTrue(e.getMessage().contains("co-partitioning"), e.getMessage());
        assertTrue(e.getMessage().contains("orders") && e.getMessage().contains("prices"), e.getMessage());
    }

    @Test
    void aFilteredOrAggregatedTableIsReadThroughWhatItsOperatorsMakeOfTheStore() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, Integer> cheap =
                prices.filter((item, price) -> Integer.parseInt(price) < 5).mapValues(Integer::parseInt);
        EventStream<String, String> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        orders.join(cheap, (item, price) -> item + "@" + price)
                .to("cheap", Produced.with(Serdes.String(), Serdes.String()));
        Table<String, Long> counts = orders.groupByKey().count();
        orders.join(counts, (item, count) -> item + "#" + count)
                .to("counted", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            TestInputTopic<String, String> priceInput = driver.input("prices", Serdes.String(), Serdes.String());
            priceInput.pipe("tea", "3");
            priceInput.pipe("cake", "7");
            TestInputTopic<String, String> orderInput = driver.input("orders", Serdes.String(), Serdes.String());
            orderInput.pipe("tea", "tea");
            orderInput.pipe("cake", "cake");
            orderInput.pipe("tea", "tea");
            assertEquals(
                    List.of("tea@3", "tea@3"),
                    driver.output("cheap", Serdes.String(), Serdes.String()).readValues());
            assertEquals(
                    List.of("tea#1", "cake#1", "tea#2"),
                    driver.output("counted", Serdes.String(), Serdes.String()).readValues(),
                    "the count already holds the record being joined: the aggregation runs first");
        }
    }

    @Test
    void aTableOfAnotherBuilderIsRefused() {
        Table<String, String> elsewhere =
                new StreamsBuilder().table("prices", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> orders =
                new StreamsBuilder().stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> orders.join(elsewhere, (o, p) -> o + p));
        assertTrue(e.getMessage().contains("same builder"), e.getMessage());
    }

    @Test
    void theEndOfABoundedInputReleasesEveryWaitingRecord() {
        try (TestDriver driver = orders(Joined.aligned(), true, Duration.ZERO)) {
            TestOutputTopic<String, String> out = priced(driver);
            price(driver, "tea", "3", 10_000);
            order(driver, "tea", 50_000);
            order(driver, "cake", 60_000);
            assertEquals(List.of(), out.readValues());
            driver.endOfInput();
            assertEquals(List.of("tea@3", "cake@null"), out.readValues());
        }
    }
}
