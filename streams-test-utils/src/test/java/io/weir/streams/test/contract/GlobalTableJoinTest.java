package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stream joined with a global table, one test per rule: the key selector picks the row, the row is
 * the table's value when the record is processed, the result keeps the record's key and event time,
 * an inner join drops (and counts) a record with no row or a null join key, a left join joins it with
 * null (and counts it), what user code throws goes to the processing-error handler, and a table of
 * another builder is refused at build time.
 */
class GlobalTableJoinTest {

    /** Payments keyed by payment id, value {@code "<card>:<amount>"}; cards' countries in a global table. */
    private static TestDriver payments(boolean left, StreamsBuilder builder) {
        GlobalTable<String, String> countries =
                builder.globalTable("countries", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> payments =
                builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String()));
        BiFunction<String, String, @Nullable String> card =
                (id, payment) -> payment.isEmpty() ? null : payment.substring(0, payment.indexOf(':'));
        EventStream<String, String> joined = left
                ? payments.leftJoin(countries, card, (payment, country) -> payment + "@" + country)
                : payments.join(countries, card, (payment, country) -> payment + "@" + country);
        joined.to("enriched", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(
                builder.build(),
                TestDriverConfig.defaults().withPartitions("payments", 2).withPartitions("countries", 3));
    }

    private static List<OutputRecord<String, String>> enriched(TestDriver driver) {
        return driver.output("enriched", Serdes.String(), Serdes.String()).readAll();
    }

    @Test
    void theKeySelectorPicksTheRowAndTheResultKeepsTheRecordsKeyAndEventTime() {
        try (TestDriver driver = payments(false, new StreamsBuilder())) {
            driver.input("countries", Serdes.String(), Serdes.String()).pipe("card-1", "FR");
            driver.input("payments", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("pay-7", "card-1:30").at(5_000));
            List<OutputRecord<String, String>> out = enriched(driver);
            assertEquals(1, out.size());
            assertEquals("pay-7", out.get(0).key());
            assertEquals("card-1:30@FR", out.get(0).value());
            assertEquals(5_000, out.get(0).timestamp());
        }
    }

    @Test
    void aRecordJoinsTheRowTheTableHoldsWhenItIsProcessed() {
        try (TestDriver driver = payments(false, new StreamsBuilder())) {
            TestInputTopic<String, String> countries = driver.input("countries", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            countries.pipe("card-1", "FR");
            payments.pipe(TestRecord.of("pay-1", "card-1:10").at(2_000));
            countries.pipe("card-1", "DE");
            // An older event time still joins the current row: latest, not as-of.
            payments.pipe(TestRecord.of("pay-2", "card-1:20").at(1_000));
            assertEquals(
                    List.of("card-1:10@FR", "card-1:20@DE"),
                    enriched(driver).stream().map(OutputRecord::value).toList());
        }
    }

    @Test
    void anInnerJoinDropsAndCountsARecordWithNoRow() {
        try (TestDriver driver = payments(false, new StreamsBuilder())) {
            TestInputTopic<String, String> countries = driver.input("countries", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            countries.pipe("card-1", "FR");
            countries.pipe("card-2", "IT");
            countries.pipe(TestRecord.<String, String>of("card-2", null));
            payments.pipe("pay-1", "card-9:10");
            payments.pipe("pay-2", "card-2:10");
            payments.pipe("pay-3", "card-1:10");
            assertEquals(
                    List.of("card-1:10@FR"),
                    enriched(driver).stream().map(OutputRecord::value).toList());
            assertEquals(2, driver.metrics().total(WeirMetrics.JOIN_MISSES), "an absent and a deleted row");
        }
    }

    @Test
    void anInnerJoinDropsAndCountsARecordWhoseJoinKeyIsNull() {
        try (TestDriver driver = payments(false, new StreamsBuilder())) {
            driver.input("payments", Serdes.String(), Serdes.String()).pipe("pay-1", "");
            assertEquals(List.of(), enriched(driver));
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_JOIN_KEYS));
            assertEquals(0, driver.metrics().total(WeirMetrics.JOIN_MISSES));
        }
    }

    @Test
    void aLeftJoinJoinsARecordWithNoRowWithNullAndCountsIt() {
        try (TestDriver driver = payments(true, new StreamsBuilder())) {
            driver.input("countries", Serdes.String(), Serdes.String()).pipe("card-1", "FR");
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            payments.pipe("pay-1", "card-1:10");
            payments.pipe("pay-2", "card-9:10");
            payments.pipe("pay-3", "");
            assertEquals(
                    List.of("card-1:10@FR", "card-9:10@null", "@null"),
                    enriched(driver).stream().map(OutputRecord::value).toList());
            assertEquals(1, driver.metrics().total(WeirMetrics.JOIN_MISSES));
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_JOIN_KEYS));
        }
    }

    @Test
    void whatTheJoinerThrowsGoesToTheProcessingErrorHandlerNamingTheJoin() {
        List<String> operators = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.setProcessingErrorHandler(error -> {
            operators.add(error.operator());
            return ErrorDecision.CONTINUE;
        });
        GlobalTable<String, String> countries =
                builder.globalTable("countries", Consumed.with(Serdes.String(), Serdes.String()));
        builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .join(
                        countries,
                        (id, card) -> card,
                        (card, country) -> {
                            if (country.equals("??")) {
                                throw new IllegalStateException("unknown country");
                            }
                            return card + "@" + country;
                        },
                        Named.as("with-country"))
                .to("enriched", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            TestInputTopic<String, String> table = driver.input("countries", Serdes.String(), Serdes.String());
            table.pipe("card-1", "??");
            table.pipe("card-2", "FR");
            TestInputTopic<String, String> payments = driver.input("payments", Serdes.String(), Serdes.String());
            payments.pipe("pay-1", "card-1");
            payments.pipe("pay-2", "card-2");
            assertEquals(List.of("with-country"), operators);
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
            assertEquals(
                    List.of("card-2@FR"),
                    enriched(driver).stream().map(OutputRecord::value).toList());
        }
    }

    @Test
    void aGlobalTableOfAnotherBuilderIsRefusedAtBuildTime() {
        GlobalTable<String, String> elsewhere =
                new StreamsBuilder().globalTable("countries", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> payments =
                new StreamsBuilder().stream("payments", Consumed.with(Serdes.String(), Serdes.String()));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> payments.join(elsewhere, (id, card) -> card, (card, country) -> card));
        assertTrue(e.getMessage().contains("same builder"), e.getMessage());
    }
}
