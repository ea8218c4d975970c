package io.weir.examples;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.weir.streams.test.Times.at;
import static io.weir.streams.test.Times.millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The orders-per-minute dashboard on the TestDriver. Wall-clock time is virtual and starts at 12:00:00, so
 * orders placed "now" arrive at the time they were placed unless a test says otherwise.
 */
class OrdersPerMinuteTest {

    private static final Windowed<String> EU_1200 =
            new Windowed<>("EU", new Window(millis("12:00:00"), millis("12:01:00")));

    private final TestDriver driver = new TestDriver(
            OrdersPerMinute.topology(), TestDriverConfig.defaults().withStartTime(at("12:00:00")));
    private final TestInputTopic<String, Order> orders =
            driver.input(OrdersPerMinute.ORDERS, Serdes.String(), JsonSerde.of(Order.class));
    private final TestOutputTopic<Windowed<String>, Long> counts =
            driver.output(OrdersPerMinute.COUNTS_TOPIC, WindowedSerdes.string(), Serdes.Long());
    private int ids;

    @AfterEach
    void close() {
        driver.close();
    }

    private void order(String region, String placedAt, String arrivesAt) {
        String id = "o" + ++ids;
        orders.pipe(TestRecord.of(id, new Order(id, region, 2_500, millis(placedAt)))
                .arrivingAt(at(arrivesAt)));
    }

    private static PaneInfo.Timing timing(OutputRecord<?, ?> r) {
        return r.pane().orElseThrow().timing();
    }

    @Test
    void anOpenMinuteIsRefreshedEveryTwoSecondsWhileItChanges() {
        order("EU", "12:00:00.5", "12:00:00.5");
        order("EU", "12:00:01", "12:00:01");
        driver.advanceTimeTo(at("12:00:02"));
        OutputRecord<Windowed<String>, Long> first = counts.readOne();
        assertEquals(EU_1200, first.key());
        assertEquals(2L, first.value());
        assertEquals(PaneInfo.Timing.EARLY, timing(first));

        driver.advanceTimeTo(at("12:00:04"));
        assertTrue(counts.isEmpty(), "nothing changed since 12:00:02: no pane");

        order("EU", "12:00:05", "12:00:05");
        driver.advanceTimeTo(at("12:00:06"));
        assertEquals(3L, counts.readOne().value(), "accumulating: the minute's whole count, not the one new order");
    }

    @Test
    void theMinuteIsReportedOnTimeThenCorrectedByLateOrdersAndTheLatestValuePerKeyIsRight() {
        order("EU", "12:00:10", "12:00:10");
        order("EU", "12:00:58", "12:01:04.5");
        order("US", "12:01:05", "12:01:05");
        List<OutputRecord<Windowed<String>, Long>> panes = counts.readAll();
        OutputRecord<Windowed<String>, Long> onTime = panes.get(panes.size() - 1);
        assertEquals(EU_1200, onTime.key());
        assertEquals(
                PaneInfo.Timing.ON_TIME,
                timing(onTime),
                "W = 12:00:59.999 passed the minute, which changed since its last early pane");
        assertEquals(2L, onTime.value());

        order("EU", "12:00:30", "12:01:07");
        order("EU", "12:00:40", "12:01:07.5");
        driver.advanceTimeTo(at("12:01:08"));
        List<OutputRecord<Windowed<String>, Long>> corrections = counts.readAll();
        List<OutputRecord<Windowed<String>, Long>> eu =
                corrections.stream().filter(r -> r.key().equals(EU_1200)).toList();
        assertEquals(1, eu.size(), "both late orders in one correction, at the 2 s tick");
        assertEquals(PaneInfo.Timing.LATE, timing(eu.get(0)));
        assertEquals(4L, eu.get(0).value());

        driver.endOfInput();
        List<OutputRecord<Windowed<String>, Long>> everything = new ArrayList<>(panes);
        everything.addAll(corrections);
        everything.addAll(counts.readAll());
        Map<Windowed<String>, Long> dashboard = new HashMap<>();
        long sumOfEuPanes = 0;
        for (OutputRecord<Windowed<String>, Long> r : everything) {
            dashboard.put(r.key(), r.value());
            sumOfEuPanes += r.key().equals(EU_1200) ? r.value() : 0;
        }
        assertEquals(4L, dashboard.get(EU_1200), "an upsert reader keeps the latest count per (region, minute)");
        assertTrue(sumOfEuPanes > 4, "adding the panes up would count orders more than once");
    }

    @Test
    void ordersBeyondTheAllowedLatenessAreDroppedAndCounted() {
        order("EU", "12:00:10", "12:00:10");
        order("US", "12:11:05", "12:11:05");
        order("EU", "12:00:30", "12:11:06");
        driver.endOfInput();
        assertEquals(1L, counts.readLatestByKey().get(EU_1200));
        assertEquals(1, driver.metrics().get(OrdersPerMinute.COUNTS, WeirMetrics.LATE_RECORDS_DROPPED));
    }
}
