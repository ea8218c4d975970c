package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;

/**
 * Fraud alerts: a card used more than {@code threshold} times within one minute of event time raises an
 * alert.
 *
 * <ul>
 *   <li>Input: {@value #PAYMENTS}, {@link Payment}s keyed by card. The event time is {@code paidAt}; the
 *       watermark trails the latest payment by {@link #DELAY} and leaves out a partition silent for
 *       {@link #IDLENESS} of wall-clock time.</li>
 *   <li>Repeats of a payment (a phone retrying: the same card and payment id, paid within
 *       {@link #DEDUP_WITHIN}) are dropped first ({@code deduplicate}), so they do not inflate a count.
 *       The dedup runs in the same tasks as the count, and judges every payment the count could still
 *       take: its allowed lateness is the window plus the count's. A payment later than that goes to
 *       {@value #LATE_PAYMENTS} from the dedup, as the count would have sent it.</li>
 *   <li>A minute's alert fires when the watermark passes the minute's end (an ON_TIME pane). A payment
 *       up to {@link #ALLOWED_LATENESS} later than that still counts: if the card is then over the
 *       threshold, an alert with the new count follows (a LATE pane). Alerts are keyed by card; one
 *       minute of one card may alert more than once, each time with a higher count.</li>
 *   <li>A payment later than that (a phone that was offline for minutes) is not counted; it goes to
 *       {@value #LATE_PAYMENTS} with headers saying why, for the nightly report, and is counted in
 *       the {@code late-records-dropped} and {@code side-output-records} metrics.</li>
 * </ul>
 */
public final class FraudAlerts {

    public static final String PAYMENTS = "payments";
    public static final String ALERTS = "fraud-alerts";
    public static final String LATE_PAYMENTS = "payments-late";
    /** The windowed count's store; also the node its metrics are reported under. */
    public static final String COUNTS = "payments-per-card";

    public static final String SEEN_PAYMENTS = "seen-payment-ids";

    /** The most payments per card per minute that raise no alert. */
    public static final long DEFAULT_THRESHOLD = 5;

    public static final Duration WINDOW = Duration.ofMinutes(1);
    public static final Duration DELAY = Duration.ofSeconds(5);
    public static final Duration IDLENESS = Duration.ofSeconds(30);
    public static final Duration ALLOWED_LATENESS = Duration.ofMinutes(2);
    /** How far apart in event time two copies of one payment may be. */
    public static final Duration DEDUP_WITHIN = Duration.ofMinutes(1);

    private FraudAlerts() {}

    /** The topology: payments in, alerts and late payments out. */
    public static Topology topology(long threshold) {
        JsonSerde<Payment> payments = JsonSerde.of(Payment.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        PAYMENTS,
                        Consumed.with(Serdes.String(), payments)
                                .withTimestamps(Payment::paidAt)
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(DELAY)
                                        .withIdleness(IDLENESS)))
                .deduplicate(
                        (card, p) -> p.paymentId(),
                        DEDUP_WITHIN,
                        Deduplicated.with(Serdes.String())
                                .withName(SEEN_PAYMENTS)
                                .withAllowedLateness(WINDOW.plus(ALLOWED_LATENESS))
                                .withLateRecordsTo(LATE_PAYMENTS))
                .groupByKey()
                .windowedBy(TumblingWindows.of(WINDOW).withAllowedLateness(ALLOWED_LATENESS))
                .lateRecordsTo(LATE_PAYMENTS)
                .count(Materialized.as(COUNTS))
                .toStream()
                .filter((window, count) -> count > threshold)
                .map((window, count) -> KeyValue.pair(
                        window.key(),
                        new FraudAlert(
                                window.key(),
                                window.window().start(),
                                window.window().end(),
                                count)))
                .to(ALERTS, Produced.with(Serdes.String(), JsonSerde.of(FraudAlert.class)));
        return builder.build();
    }
}
