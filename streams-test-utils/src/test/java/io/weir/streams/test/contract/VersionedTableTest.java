package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.VersionedKeyValueStore;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Versioned tables, one test per rule: the current value is the latest by event time; an older update
 * goes into history and emits nothing; any time within the retention can be read; history the watermark
 * passed by the retention is purged, and updates that old are refused.
 */
class VersionedTableTest {

    private static final Duration RETENTION = Duration.ofMinutes(1);

    /** "prices" (item -> price) as a versioned table, its changes to "price-changes". */
    private static TestDriver prices() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                        "prices",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()),
                        Materialized.<String, String>as("price-store").versioned(RETENTION))
                .toStream()
                .to("price-changes", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withApplicationId("versions").withCommitInterval(Duration.ofDays(1)));
    }

    private static void price(TestInputTopic<String, String> in, String item, String price, long time) {
        in.pipe(TestRecord.of(item, price).at(time));
    }

    @Test
    void theCurrentValueIsTheLatestByEventTimeAndAnOlderUpdateEmitsNothing() {
        try (TestDriver driver = prices()) {
            TestInputTopic<String, String> in = driver.input("prices", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("price-changes", Serdes.String(), Serdes.String());
            price(in, "tea", "3", 10_000);
            driver.commit();
            assertEquals(List.of("3"), out.readValues());
            price(in, "tea", "2", 5_000);
            driver.commit();
            assertTrue(out.isEmpty(), "an update older than the current version changes nothing downstream");
            VersionedKeyValueStore<String, String> table =
                    driver.versionedTable("price-store", Serdes.String(), Serdes.String());
            assertEquals("3", table.get("tea"), "the latest by event time, not the last by offset");
            assertEquals(Map.of("tea", "3"), driver.table("price-store", Serdes.String(), Serdes.String()));
            price(in, "tea", "4", 20_000);
            driver.commit();
            assertEquals(List.of("4"), out.readValues());
        }
    }

    @Test
    void theValueAtAnyTimeWithinTheRetentionCanBeRead() {
        try (TestDriver driver = prices()) {
            TestInputTopic<String, String> in = driver.input("prices", Serdes.String(), Serdes.String());
            price(in, "tea", "3", 10_000);
            price(in, "tea", "5", 30_000);
            price(in, "tea", "4", 20_000);
            VersionedKeyValueStore<String, String> table =
                    driver.versionedTable("price-store", Serdes.String(), Serdes.String());
            assertNull(table.get("tea", 9_999), "nothing before the first version");
            assertEquals("3", table.get("tea", 10_000));
            assertEquals("3", table.get("tea", 19_999));
            assertEquals("4", table.get("tea", 20_000), "the late update sits between its neighbours");
            assertEquals("4", table.get("tea", 29_999));
            assertEquals("5", table.get("tea", 30_000));
            assertEquals("5", table.get("tea"));
        }
    }

    @Test
    void aDeleteIsAVersionWithoutAValue() {
        try (TestDriver driver = prices()) {
            TestInputTopic<String, String> in = driver.input("prices", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("price-changes", Serdes.String(), Serdes.String());
            price(in, "tea", "3", 10_000);
            in.pipe(TestRecord.<String, String>of("tea", null).at(20_000));
            price(in, "tea", "2", 15_000);
            driver.commit();
            VersionedKeyValueStore<String, String> table =
                    driver.versionedTable("price-store", Serdes.String(), Serdes.String());
            assertNull(table.get("tea"));
            assertEquals("2", table.get("tea", 17_000));
            assertNull(table.get("tea", 25_000), "deleted from 20 000 on");
            assertEquals(Map.of(), driver.table("price-store", Serdes.String(), Serdes.String()));
            assertTrue(out.readValues().isEmpty(), "inserted and deleted within one commit: no change");
        }
    }

    @Test
    void historyTheWatermarkPassedByTheRetentionIsPurgedAndUpdatesThatOldAreRefused() {
        try (TestDriver driver = prices()) {
            TestInputTopic<String, String> in = driver.input("prices", Serdes.String(), Serdes.String());
            price(in, "tea", "3", 10_000);
            price(in, "tea", "4", 20_000);
            price(in, "coffee", "9", 80_000);
            VersionedKeyValueStore<String, String> table =
                    driver.versionedTable("price-store", Serdes.String(), Serdes.String());
            assertEquals("3", table.get("tea", 15_000), "ended at 20 000: kept until the watermark is 80 000");
            price(in, "coffee", "8", 80_001);
            driver.commit();
            assertNull(table.get("tea", 15_000), "purged at the commit after the watermark passed 80 000");
            assertEquals("4", table.get("tea", 25_000), "the current version stays");
            price(in, "tea", "1", 20_000);
            assertEquals(1, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED), "20 000 + 1 min <= 80 000");
            assertEquals("4", table.get("tea"));
        }
    }

    @Test
    void theHistorySurvivesARestart() {
        try (TestDriver driver = prices()) {
            TestInputTopic<String, String> in = driver.input("prices", Serdes.String(), Serdes.String());
            price(in, "tea", "3", 10_000);
            price(in, "tea", "4", 20_000);
            driver.restart();
            VersionedKeyValueStore<String, String> table =
                    driver.versionedTable("price-store", Serdes.String(), Serdes.String());
            assertEquals("3", table.get("tea", 15_000));
            assertEquals("4", table.get("tea"));
        }
    }

    @Test
    void onlyTopicTablesAreVersioned() {
        StreamsBuilder builder = new StreamsBuilder();
        IllegalStateException aggregation = assertThrows(
                IllegalStateException.class,
                () -> builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupByKey()
                        .count(Materialized.<String, Long>as("c").versioned(RETENTION)));
        assertTrue(aggregation.getMessage().contains("versioned"), aggregation.getMessage());
        IllegalStateException withTtl = assertThrows(
                IllegalStateException.class,
                () -> builder.table(
                        "prices",
                        Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String>as("p")
                                .versioned(RETENTION)
                                .withTimeToLive(RETENTION)));
        assertTrue(withTtl.getMessage().contains("time-to-live"), withTtl.getMessage());
    }
}
