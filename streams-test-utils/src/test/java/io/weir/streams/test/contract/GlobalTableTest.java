package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.RecordError;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.test.ValueAndTimestamp;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Global tables: every task reads the whole topic, whatever partition it runs, updates and deletes
 * included; the table is read-only to processors, survives a restart, and handles unreadable records
 * with its source's error handler.
 */
class GlobalTableTest {

    /** Payments by card, each written out with its card's country from the global table "countries". */
    private static final class Enrich implements KeyedProcessor<String, String, String, String> {
        private final String table;

        Enrich(String table) {
            this.table = table;
        }

        @Override
        public void process(String card, String payment, KeyedProcessorContext<String, String, String> context) {
            ReadOnlyKeyValueStore<String, String> countries = context.globalTable(table);
            String country = countries.get(card);
            context.forward(card, payment + "@" + (country == null ? "unknown" : country));
        }
    }

    private static TestDriver enrichment(Consumed<String, String> countries) {
        StreamsBuilder builder = new StreamsBuilder();
        GlobalTable<String, String> table =
                builder.globalTable("countries", countries, Materialized.as("country-of-card"));
        builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(() -> new Enrich(table.storeName()))
                .to("enriched", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withPartitions("payments", 2).withPartitions("countries", 3));
    }

    private static TestDriver enrichment() {
        return enrichment(Consumed.with(Serdes.String(), Serdes.String()));
    }

    @Test
    void everyTaskReadsTheWholeTableWithItsUpdatesAndDeletes() {
        try (TestDriver driver = enrichment()) {
            TestInputTopic<String, String> countries = driver.input("countries", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("enriched", Serdes.String(), Serdes.String());
            for (int card = 0; card < 10; card++) {
                countries.pipe("card-" + card, "country-" + card);
            }
            for (int card = 0; card < 10; card++) {
                payments.pipe("card-" + card, "p" + card);
            }
            List<String> enriched = out.readValues();
            for (int card = 0; card < 10; card++) {
                assertTrue(enriched.contains("p" + card + "@country-" + card), enriched.toString());
            }
            countries.pipe("card-1", "elsewhere");
            countries.pipe("card-2", null);
            payments.pipe("card-1", "q1");
            payments.pipe("card-2", "q2");
            assertEquals(List.of("q1@elsewhere", "q2@unknown"), out.readValues());
        }
    }

    @Test
    void theDriverReadsTheTableWithItsRowsTimes() {
        try (TestDriver driver = enrichment()) {
            TestInputTopic<String, String> countries = driver.input("countries", Serdes.String(), Serdes.String());
            countries.pipe(TestRecord.of("card-1", "fr").at(5));
            countries.pipe(TestRecord.of("card-2", "de").at(7));
            countries.pipe(TestRecord.of("card-2", (String) null).at(9));
            countries.pipe(TestRecord.of("card-3", "it").at(8));
            assertEquals(Map.of("card-1", "fr", "card-3", "it"), driver.table("country-of-card"));
            Map<String, ValueAndTimestamp<String>> timed = driver.timestampedTable("country-of-card");
            assertEquals(new ValueAndTimestamp<>("fr", 5), timed.get("card-1"));
            assertEquals(new ValueAndTimestamp<>("it", 8), timed.get("card-3"));
            IllegalArgumentException unknown =
                    assertThrows(IllegalArgumentException.class, () -> driver.table("no-such-store"));
            assertTrue(unknown.getMessage().contains("country-of-card"), unknown.getMessage());
        }
    }

    @Test
    void theTableSurvivesARestart() {
        try (TestDriver driver = enrichment()) {
            TestInputTopic<String, String> countries = driver.input("countries", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("enriched", Serdes.String(), Serdes.String());
            countries.pipe("card-1", "fr");
            driver.restart();
            payments.pipe("card-1", "p1");
            assertEquals(List.of("p1@fr"), out.readValues());
        }
    }

    @Test
    void anUnreadableRecordGoesToTheSourcesHandler() {
        Consumed<String, Long> longs = Consumed.with(Serdes.String(), Serdes.Long());
        StreamsBuilder failing = new StreamsBuilder();
        failing.globalTable("limits", longs);
        failing.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .to("out");
        try (TestDriver driver = new TestDriver(failing.build())) {
            TestInputTopic<String, String> limits = driver.input("limits", Serdes.String(), Serdes.String());
            RecordError error = assertThrows(RecordError.class, () -> limits.pipe("card-1", "not a long"));
            assertEquals(RecordError.Reason.VALUE_DESERIALIZATION, error.reason());
        }
        StreamsBuilder skipping = new StreamsBuilder();
        skipping.globalTable("limits", longs.withErrorHandler(RecordErrorHandler.logAndContinue()));
        skipping.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .to("out");
        try (TestDriver driver = new TestDriver(skipping.build())) {
            TestInputTopic<String, String> limits = driver.input("limits", Serdes.String(), Serdes.String());
            limits.pipe("card-1", "not a long");
            driver.input("limits", Serdes.String(), Serdes.Long()).pipe("card-2", 5L);
        }
    }

    @Test
    void whatAGlobalTableDoesNotHaveIsRefusedAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> strings = Consumed.with(Serdes.String(), Serdes.String());
        builder.globalTable("countries", strings);
        IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> builder.stream("countries", strings));
        assertTrue(twice.getMessage().contains("global table"), twice.getMessage());
        IllegalStateException serdes = assertThrows(
                IllegalStateException.class,
                () -> builder.globalTable(
                        "other", strings, Materialized.<String, String>as("x").withValueSerde(Serdes.String())));
        assertTrue(serdes.getMessage().contains("serdes"), serdes.getMessage());
        IllegalArgumentException sameStore = assertThrows(
                IllegalArgumentException.class,
                () -> builder.globalTable("third", strings, Materialized.as("countries-global")));
        assertTrue(sameStore.getMessage().contains("countries-global"), sameStore.getMessage());
    }

    @Test
    void aProcessorAskingForAGlobalTableThatDoesNotExistIsToldWhichExist() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.globalTable("countries", Consumed.with(Serdes.String(), Serdes.String()));
        builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(() -> new Enrich("no-such-table"))
                .to("enriched", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            RuntimeException e = assertThrows(
                    RuntimeException.class,
                    () -> driver.input("payments", Serdes.String(), Serdes.String())
                            .pipe("card-1", "p1"));
            assertTrue(
                    String.valueOf(e.getMessage()).contains("countries-global")
                            || String.valueOf(e.getCause()).contains("countries-global"),
                    String.valueOf(e));
        }
    }
}
