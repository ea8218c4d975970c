package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.test.ValueAndTimestamp;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Foreign-key joins, one test per rule: a left row joins the right row its foreign key names; a change
 * of a right row reaches every left row referring to it; a foreign-key change joins the new right row,
 * never the old one and never null meanwhile; deletes on either side; a null foreign key is counted; a
 * throwing extractor goes to the processing-error handler; tables with different partition counts; the
 * state survives a restart.
 */
class ForeignKeyJoinTest {

    /** Orders (id -> "customer:amount") joined with customers (id -> name): "amount by name". */
    private static TestDriver orders(boolean left, TestDriverConfig config, StreamsBuilder builder) {
        Table<String, String> orders = builder.table(
                "orders",
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as("orders-store").withEmitEveryChange());
        Table<String, String> customers = builder.table(
                "customers",
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as("customers-store").withEmitEveryChange());
        Materialized<String, String> store =
                Materialized.<String, String>as("orders-with-names").withEmitEveryChange();
        Table<String, String> joined = left
                ? orders.leftJoin(customers, ForeignKeyJoinTest::customer, (o, c) -> amount(o) + " by " + c, store)
                : orders.join(customers, ForeignKeyJoinTest::customer, (o, c) -> amount(o) + " by " + c, store);
        joined.toStream(Refinement.ACCUMULATING_AND_RETRACTING)
                .to("joined", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), config);
    }

    private static TestDriver orders(boolean left) {
        return orders(left, TestDriverConfig.defaults(), new StreamsBuilder());
    }

    private static @Nullable String customer(String order) {
        String customer = order.substring(0, order.indexOf(':'));
        if (customer.equals("boom")) {
            throw new IllegalArgumentException("no customer");
        }
        return customer.isEmpty() ? null : customer;
    }

    private static String amount(String order) {
        return order.substring(order.indexOf(':') + 1);
    }

    @Test
    void aLeftRowJoinsTheRightRowItsForeignKeyNamesWhicheverArrivesFirst() {
        try (TestDriver driver = orders(false)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "orders", "o1", "c1:10");
            assertEquals(List.of(), TableChanges.read(out));
            TableChanges.put(driver, "customers", "c1", "Ann");
            TableChanges.put(driver, "customers", "c2", "Bob");
            TableChanges.put(driver, "orders", "o2", "c2:20");
            assertEquals(List.of("o1=10 by Ann", "o2=20 by Bob"), TableChanges.read(out));
        }
    }

    @Test
    void theDriverReadsTheJoinsResultWithItsTimesAndADeleteIsStampedWithItsOwnTime() {
        try (TestDriver driver = orders(true)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            driver.input("customers", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("c1", "Ann").at(8));
            driver.input("orders", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("o1", "c1:10").at(5));
            driver.input("orders", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("o2", ":20").at(6));
            assertEquals(Map.of("o1", "10 by Ann", "o2", "20 by null"), driver.table("orders-with-names"));
            assertEquals(
                    new ValueAndTimestamp<>("10 by Ann", 8),
                    driver.<String, String>timestampedTable("orders-with-names").get("o1"));
            out.readAll();
            driver.input("orders", Serdes.String(), Serdes.String())
                    .pipe(TestRecord.of("o1", (String) null).at(7));
            List<OutputRecord<String, String>> changes = out.readAll();
            OutputRecord<String, String> delete = changes.get(changes.size() - 1);
            assertEquals(null, delete.value());
            assertEquals(8, delete.timestamp(), "the delete at 7 of a result at 8 is not stamped earlier");
        }
    }

    @Test
    void aChangeOfARightRowReachesEveryLeftRowReferringToIt() {
        try (TestDriver driver = orders(false)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "customers", "c1", "Ann");
            TableChanges.put(driver, "orders", "o1", "c1:10");
            TableChanges.put(driver, "orders", "o2", "c1:20");
            TableChanges.read(out);
            TableChanges.put(driver, "customers", "c1", "Anna");
            assertEquals(
                    List.of("o1-=10 by Ann", "o1=10 by Anna", "o2-=20 by Ann", "o2=20 by Anna"),
                    TableChanges.read(out));
        }
    }

    @Test
    void aForeignKeyChangeJoinsTheNewRightRowNeverTheOldOneOrNull() {
        try (TestDriver driver = orders(true)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "customers", "c1", "Ann");
            TableChanges.put(driver, "customers", "c2", "Bob");
            TableChanges.put(driver, "orders", "o1", "c1:10");
            TableChanges.read(out);
            TableChanges.put(driver, "orders", "o1", "c2:10");
            assertEquals(List.of("o1-=10 by Ann", "o1=10 by Bob"), TableChanges.read(out));
            TableChanges.put(driver, "customers", "c1", "Anna");
            assertEquals(List.of(), TableChanges.read(out), "o1 no longer refers to c1");
            TableChanges.put(driver, "orders", "o1", "c2:15");
            assertEquals(List.of("o1-=10 by Bob", "o1=15 by Bob"), TableChanges.read(out), "same key: joined at once");
        }
    }

    @Test
    void deletingARightRowDeletesAnInnerResultAndJoinsALeftOneWithNull() {
        for (boolean left : new boolean[] {false, true}) {
            try (TestDriver driver = orders(left)) {
                TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
                TableChanges.put(driver, "customers", "c1", "Ann");
                TableChanges.put(driver, "orders", "o1", "c1:10");
                TableChanges.read(out);
                TableChanges.put(driver, "customers", "c1", null);
                assertEquals(
                        left ? List.of("o1-=10 by Ann", "o1=10 by null") : List.of("o1-=10 by Ann", "o1=null"),
                        TableChanges.read(out));
                TableChanges.put(driver, "orders", "o1", null);
                assertEquals(left ? List.of("o1-=10 by null", "o1=null") : List.of(), TableChanges.read(out));
                TableChanges.put(driver, "customers", "c1", "Ann");
                assertEquals(List.of(), TableChanges.read(out), "the deleted order unsubscribed");
            }
        }
    }

    @Test
    void aNullForeignKeyIsCountedAndHasNoInnerResultButALeftOne() {
        for (boolean left : new boolean[] {false, true}) {
            try (TestDriver driver = orders(left)) {
                TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
                TableChanges.put(driver, "orders", "o1", ":10");
                assertEquals(left ? List.of("o1=10 by null") : List.of(), TableChanges.read(out));
                assertEquals(1, driver.metrics().total(WeirMetrics.NULL_JOIN_KEYS));
            }
        }
    }

    @Test
    void whatTheForeignKeyExtractorThrowsGoesToTheProcessingErrorHandler() {
        List<String> operators = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.setProcessingErrorHandler(error -> {
            operators.add(error.operator());
            return ErrorDecision.CONTINUE;
        });
        try (TestDriver driver = orders(false, TestDriverConfig.defaults(), builder)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "customers", "c1", "Ann");
            TableChanges.put(driver, "orders", "o1", "boom:10");
            TableChanges.put(driver, "orders", "o2", "c1:20");
            assertEquals(List.of("orders-with-names"), operators);
            assertEquals(List.of("o2=20 by Ann"), TableChanges.read(out));
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
        }
    }

    @Test
    void tablesWithDifferentPartitionCountsJoinThroughTheInternalTopics() {
        TestDriverConfig config =
                TestDriverConfig.defaults().withPartitions("orders", 3).withPartitions("customers", 5);
        try (TestDriver driver = orders(false, config, new StreamsBuilder())) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            for (int c = 0; c < 7; c++) {
                TableChanges.put(driver, "customers", "c" + c, "name" + c);
            }
            for (int o = 0; o < 20; o++) {
                TableChanges.put(driver, "orders", "o" + o, "c" + (o % 7) + ":" + o);
            }
            Map<String, String> joined = out.readLatestByKey();
            assertEquals(20, joined.size());
            for (int o = 0; o < 20; o++) {
                assertEquals(o + " by name" + (o % 7), joined.get("o" + o));
            }
        }
    }

    @Test
    void theJoinSurvivesARestart() {
        try (TestDriver driver = orders(false)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "customers", "c1", "Ann");
            TableChanges.put(driver, "orders", "o1", "c1:10");
            driver.restart();
            TableChanges.read(out);
            TableChanges.put(driver, "customers", "c1", "Anna");
            TableChanges.put(driver, "orders", "o1", "c1:11");
            assertEquals(
                    List.of("o1-=10 by Ann", "o1=10 by Anna", "o1-=10 by Anna", "o1=11 by Anna"),
                    TableChanges.read(out));
        }
    }
}
