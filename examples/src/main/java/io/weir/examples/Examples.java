package io.weir.examples;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.Windowed;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The examples {@link ExampleRunner} can run, with their topics, input and how their output is shown. */
final class Examples {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final Map<String, String> COMPACTED = Map.of("cleanup.policy", "compact");

    /** The local scoring service's answer time: a model server's typical latency. */
    static final Duration SCORING_DELAY = Duration.ofMillis(20);

    /** A score from which the scoring example marks a payment HIGH. */
    static final int HIGH_RISK = 80;

    private Examples() {}

    static List<Example> all() {
        return List.of(fraudAlerts(), ordersPerMinute(), sessions(), enrichment(), scoring(), adClicks(), wordCount());
    }

    static Optional<Example> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    static Example fraudAlerts() {
        Deserializer<FraudAlert> alerts = JsonSerde.of(FraudAlert.class).deserializer();
        return new Example(
                "fraud-alerts",
                "payments by card; an alert when a card pays more than " + FraudAlerts.DEFAULT_THRESHOLD
                        + " times in a minute; late payments to payments-late",
                resources -> FraudAlerts.topology(FraudAlerts.DEFAULT_THRESHOLD),
                List.of(FraudAlerts.PAYMENTS),
                Map.of(
                        FraudAlerts.PAYMENTS,
                        Map.of(),
                        FraudAlerts.ALERTS,
                        Map.of(),
                        FraudAlerts.LATE_PAYMENTS,
                        Map.of()),
                (seed, rate, duration) ->
                        new PaymentGenerator(FraudAlerts.PAYMENTS, PaymentGenerator.cardsFor(rate), seed),
                Map.of(FraudAlerts.ALERTS, r -> {
                    FraudAlert a = alerts.deserialize(r.topic(), r.value());
                    return String.format(
                            "ALERT %s paid %d times in %s–%s UTC%s",
                            a.card(), a.payments(), clock(a.windowStart()), clock(a.windowEnd()), pane(r));
                }));
    }

    static Example wordCount() {
        Deserializer<Long> counts = Serdes.Long().deserializer();
        return new Example(
                "word-count",
                "lines of text in; per word, its count so far, as a table emitted at each commit",
                resources -> WordCount.topology(),
                List.of(WordCount.LINES),
                Map.of(WordCount.LINES, Map.of(), WordCount.COUNTS_TOPIC, COMPACTED),
                (seed, rate, duration) -> new LineGenerator(WordCount.LINES, seed),
                Map.of(
                        WordCount.COUNTS_TOPIC,
                        r -> String.format(
                                "%-10s seen %,d times",
                                new String(r.key(), StandardCharsets.UTF_8),
                                counts.deserialize(r.topic(), r.value()))));
    }

    static Example ordersPerMinute() {
        Deserializer<Windowed<String>> keys = WindowedSerdes.string().deserializer();
        Deserializer<Long> counts = Serdes.Long().deserializer();
        return new Example(
                "orders-per-minute",
                "orders per region per minute, refreshed every 2 s while open, corrected by late orders",
                resources -> OrdersPerMinute.topology(),
                List.of(OrdersPerMinute.ORDERS),
                Map.of(OrdersPerMinute.ORDERS, Map.of(), OrdersPerMinute.COUNTS_TOPIC, COMPACTED),
                (seed, rate, duration) -> new OrderGenerator(seed),
                Map.of(OrdersPerMinute.COUNTS_TOPIC, r -> {
                    Windowed<String> w = keys.deserialize(r.topic(), r.key());
                    return String.format(
                            "%-5s %s–%s UTC  %,d orders%s",
                            w.key(),
                            clock(w.window().start()),
                            clock(w.window().end()),
                            counts.deserialize(r.topic(), r.value()),
                            pane(r));
                }));
    }

    static Example sessions() {
        Deserializer<Windowed<String>> keys = WindowedSerdes.string().deserializer();
        Deserializer<Long> counts = Serdes.Long().deserializer();
        return new Example(
                "sessions",
                "app sessions per user (30-minute gap), replaying the last hours " + AppEventGenerator.SPEED
                        + "x faster",
                resources -> UserSessions.topology(),
                List.of(UserSessions.EVENTS),
                Map.of(UserSessions.EVENTS, Map.of(), UserSessions.SESSIONS_TOPIC, Map.of()),
                (seed, rate, duration) -> new AppEventGenerator(seed, duration),
                Map.of(UserSessions.SESSIONS_TOPIC, r -> {
                    Windowed<String> w = keys.deserialize(r.topic(), r.key());
                    long events = counts.deserialize(r.topic(), r.value());
                    return String.format(
                            "%s session %s–%s UTC  %d event%s%s",
                            w.key(),
                            clock(w.window().start()),
                            clock(w.window().end()),
                            events,
                            events == 1 ? "" : "s",
                            pane(r));
                }));
    }

    static Example adClicks() {
        Deserializer<AttributedClick> attributed =
                JsonSerde.of(AttributedClick.class).deserializer();
        return new Example(
                "ad-clicks",
                "clicks attributed to the impression shown within 10 minutes before (a stream-stream join, "
                        + "deduplicated)",
                resources -> AdClickAttribution.topology(),
                List.of(AdClickAttribution.IMPRESSIONS, AdClickAttribution.CLICKS),
                Map.of(
                        AdClickAttribution.IMPRESSIONS,
                        Map.of(),
                        AdClickAttribution.CLICKS,
                        Map.of(),
                        AdClickAttribution.ATTRIBUTED,
                        Map.of(),
                        AdClickAttribution.LATE_CLICKS,
                        Map.of()),
                (seed, rate, duration) -> new AdGenerator(seed),
                Map.of(AdClickAttribution.ATTRIBUTED, r -> {
                    AttributedClick a = attributed.deserialize(r.topic(), r.value());
                    return String.format(
                            "%s clicked %s %ds after %s",
                            a.click().user(),
                            a.click().ad(),
                            (a.click().clickedAt() - a.impression().shownAt()) / 1_000,
                            a.impression().impressionId());
                }));
    }

    static Example enrichment() {
        Deserializer<EnrichedPayment> enriched =
                JsonSerde.of(EnrichedPayment.class).deserializer();
        return new Example(
                "enrichment",
                "payments joined with their card's profile valid when they were made (an aligned stream-table join)",
                resources -> PaymentEnrichment.topology(),
                List.of(PaymentEnrichment.PAYMENTS, PaymentEnrichment.PROFILES),
                Map.of(
                        PaymentEnrichment.PAYMENTS,
                        Map.of(),
                        PaymentEnrichment.PROFILES,
                        COMPACTED,
                        PaymentEnrichment.ENRICHED,
                        Map.of(),
                        PaymentEnrichment.TOO_OLD,
                        Map.of()),
                (seed, rate, duration) -> new EnrichmentGenerator(seed),
                Map.of(PaymentEnrichment.ENRICHED, r -> {
                    EnrichedPayment e = enriched.deserialize(r.topic(), r.value());
                    CardProfile p = e.profile();
                    return String.format(
                            "%s %8.2f  %s",
                            e.payment().card(),
                            e.payment().amountCents() / 100.0,
                            p == null ? "(no profile)" : p.holder() + " (" + p.country() + ")");
                }));
    }

    static Example scoring() {
        Deserializer<ScoredPayment> scored = JsonSerde.of(ScoredPayment.class).deserializer();
        return new Example(
                "payment-scoring",
                "payments scored by a local fraud-model service (an HTTP call per payment, "
                        + SCORING_DELAY.toMillis() + " ms each, up to " + PaymentScoring.CAPACITY
                        + " in flight with mapValuesAsync)",
                resources -> {
                    ScoringServer server = resources.open(ScoringServer.start(SCORING_DELAY));
                    ScoringClient client = resources.open(new ScoringClient(server.uri()));
                    return PaymentScoring.topology(client::score);
                },
                List.of(FraudAlerts.PAYMENTS),
                Map.of(FraudAlerts.PAYMENTS, Map.of(), PaymentScoring.SCORED, Map.of()),
                (seed, rate, duration) ->
                        new PaymentGenerator(FraudAlerts.PAYMENTS, PaymentGenerator.cardsFor(rate), seed),
                Map.of(PaymentScoring.SCORED, r -> {
                    ScoredPayment s = scored.deserialize(r.topic(), r.value());
                    return String.format(
                            "SCORE %s %8.2f  risk %2d%s",
                            s.payment().card(),
                            s.payment().amountCents() / 100.0,
                            s.score(),
                            s.score() >= HIGH_RISK ? "  HIGH" : "");
                }));
    }

    private static String clock(long epochMillis) {
        return CLOCK.format(Instant.ofEpochMilli(epochMillis));
    }

    /**
     * The pane of a windowed result: " (EARLY #2)", " (LATE #3, final)"; a retraction carries the headers of
     * the pane that replaces it: " (retraction, before LATE #1)".
     */
    private static String pane(ConsumerRecord<byte[], byte[]> record) {
        return PaneInfo.from(record.headers())
                .map(p -> p.isRetraction()
                        ? " (retraction, before " + p.timing() + " #" + p.index() + ")"
                        : " (" + p.timing() + " #" + p.index() + (p.isFinal() ? ", final" : "") + ")")
                .orElse("");
    }
}
