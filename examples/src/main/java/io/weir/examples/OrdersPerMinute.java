package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;

/**
 * A live dashboard of orders per region per minute of event time, written as upserts.
 *
 * <ul>
 *   <li>Input: {@value #ORDERS}, {@link Order}s keyed by order id, re-keyed by region. The event time is
 *       {@code placedAt}; the watermark trails the latest order by {@link #DELAY}.</li>
 *   <li>While a minute is open, its count goes out every {@link #REFRESH} of wall-clock time if it
 *       changed (EARLY panes), so the dashboard moves before the minute is complete.</li>
 *   <li>When the watermark passes the minute's end, the count goes out again (ON_TIME) if it changed
 *       since the last early pane. Orders up to {@link #ALLOWED_LATENESS} late correct it, at most once per
 *       {@link #REFRESH} (LATE panes). When the minute's state is purged, a correction still waiting for its
 *       tick goes out marked final; one already sent stays as it was (not marked final). Later orders are
 *       dropped and counted ({@code late-records-dropped}).</li>
 *   <li>Every pane is the minute's full count so far (ACCUMULATING), keyed by (region, minute): written to
 *       the compacted topic {@value #COUNTS_TOPIC}, a re-fired minute replaces its earlier value. A reader
 *       keeps the latest value per key, never adds them up.</li>
 * </ul>
 */
public final class OrdersPerMinute {

    public static final String ORDERS = "orders";
    public static final String COUNTS_TOPIC = "orders-per-minute";
    public static final String COUNTS = "orders-per-region-minute";

    public static final Duration WINDOW = Duration.ofMinutes(1);
    public static final Duration DELAY = Duration.ofSeconds(5);
    public static final Duration REFRESH = Duration.ofSeconds(2);
    public static final Duration ALLOWED_LATENESS = Duration.ofMinutes(10);

    private OrdersPerMinute() {}

    public static Topology topology() {
        JsonSerde<Order> orders = JsonSerde.of(Order.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        ORDERS,
                        Consumed.with(Serdes.String(), orders)
                                .withTimestamps(Order::placedAt)
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(DELAY)
                                        .withIdleness(Duration.ofSeconds(30))))
                .selectKey((id, order) -> order.region())
                .groupByKey(Grouped.with(Serdes.String(), orders).withName("orders-by-region"))
                .windowedBy(TumblingWindows.of(WINDOW).withAllowedLateness(ALLOWED_LATENESS))
                .withTrigger(Trigger.onTime().withEarlyFirings(REFRESH).withLateFirings(REFRESH))
                .withRefinement(Refinement.ACCUMULATING)
                .count(Materialized.as(COUNTS))
                .toStream()
                .to(COUNTS_TOPIC, Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return builder.build();
    }
}
