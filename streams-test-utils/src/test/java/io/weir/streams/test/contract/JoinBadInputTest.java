package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Undecodable records on either side of a join: each side's source hands them to its own record-error
 * handler (here: skip and count, or dead-letter), and the join goes on with the records that decode.
 */
class JoinBadInputTest {

    /** Longs as text would be 8-byte longs: a 3-byte value does not decode. */
    private static final String NOT_A_LONG = "abc";

    @Test
    void anUndecodableTableRowIsSkippedAndCountedAndAnUndecodableStreamRecordDeadLettered() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, Long> prices = builder.table(
                "prices",
                Consumed.with(Serdes.String(), Serdes.Long()).withErrorHandler(RecordErrorHandler.logAndContinue()));
        builder.stream(
                        "orders",
                        Consumed.with(Serdes.String(), Serdes.Long())
                                .withErrorHandler(RecordErrorHandler.deadLetterTo("bad-orders")))
                .join(prices, (quantity, price) -> quantity + "x" + price)
                .to("priced", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            TestInputTopic<String, String> rawPrices = driver.input("prices", Serdes.String(), Serdes.String());
            TestInputTopic<String, String> rawOrders = driver.input("orders", Serdes.String(), Serdes.String());
            driver.input("prices", Serdes.String(), Serdes.Long()).pipe("tea", 3L);
            rawPrices.pipe("tea", NOT_A_LONG);
            rawOrders.pipe("tea", NOT_A_LONG);
            driver.input("orders", Serdes.String(), Serdes.Long()).pipe("tea", 2L);
            assertEquals(
                    List.of("2x3"),
                    driver.output("priced", Serdes.String(), Serdes.String()).readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_SKIPPED), "the table's bad row");
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_DEAD_LETTERED), "the stream's bad record");
            assertEquals(
                    List.of(NOT_A_LONG),
                    driver.output("bad-orders", Serdes.String(), Serdes.String())
                            .readValues());
        }
    }

    @Test
    void anUndecodableRecordOnEitherSideOfAWindowedJoinIsSkippedAndCounted() {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, Long> consumed =
                Consumed.with(Serdes.String(), Serdes.Long()).withErrorHandler(RecordErrorHandler.logAndContinue());
        builder.stream("left", consumed)
                .join(builder.stream("right", consumed), (l, r) -> l + "+" + r, JoinWindows.of(Duration.ofSeconds(5)))
                .to("pairs", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            driver.input("left", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("k", NOT_A_LONG).at(1_000));
            driver.input("right", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("k", NOT_A_LONG).at(1_000));
            driver.input("left", Serdes.String(), Serdes.Long())
                    .pipe(TestRecord.of("k", 1L).at(1_000));
            driver.input("right", Serdes.String(), Serdes.Long())
                    .pipe(TestRecord.of("k", 2L).at(1_000));
            assertEquals(
                    List.of("1+2"),
                    driver.output("pairs", Serdes.String(), Serdes.String()).readValues());
            assertEquals(2, driver.metrics().total(WeirMetrics.RECORDS_SKIPPED));
        }
    }

    @Test
    void anUndecodableRowOfAForeignKeyJoinsRightTableIsSkippedAndCounted() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> orders = builder.table("orders", Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, Long> limits = builder.table(
                "limits",
                Consumed.with(Serdes.String(), Serdes.Long()).withErrorHandler(RecordErrorHandler.logAndContinue()));
        orders.join(limits, customer -> customer, (customer, limit) -> customer + "<=" + limit)
                .toStream()
                .to("checked", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            driver.input("limits", Serdes.String(), Serdes.String()).pipe("c1", NOT_A_LONG);
            driver.input("limits", Serdes.String(), Serdes.Long()).pipe("c1", 100L);
            driver.input("orders", Serdes.String(), Serdes.String()).pipe("o2", "c1");
            driver.commit();
            assertEquals(
                    List.of("c1<=100"),
                    driver.output("checked", Serdes.String(), Serdes.String()).readValues());
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_SKIPPED), "the limit that does not decode");
        }
    }
}
