package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;

/**
 * Payments enriched with their card's profile as it was when the payment was made: a stream–table join,
 * aligned on the profiles' event time.
 *
 * <ul>
 *   <li>Inputs: {@value #PAYMENTS} and the compacted {@value #PROFILES}, both keyed by card and with the
 *       same number of partitions.</li>
 *   <li>The profiles are a versioned table ({@value #PROFILE_STORE}, a day of history). A payment waits
 *       until the profiles' watermark reaches its event time, then joins the profile valid at that time:
 *       the result is the same whichever topic's records arrive first, after any restart. The profiles
 *       change rarely, so their partitions go idle after {@link #PROFILE_IDLENESS} without an update, and
 *       a payment is then joined at once with what the table holds.</li>
 *   <li>A payment whose card had no profile then goes out with a null profile (a left join); one more than
 *       a day older than the profiles' watermark goes to {@value #TOO_OLD}.</li>
 *   <li>Output: {@value #ENRICHED}, {@link EnrichedPayment}s keyed by card.</li>
 * </ul>
 */
public final class PaymentEnrichment {

    /** Not {@code payments}: the fraud-alerts example writes its own input there, on the same cluster. */
    public static final String PAYMENTS = "card-payments";

    public static final String PROFILES = "card-profiles";
    public static final String ENRICHED = "payments-enriched";
    public static final String TOO_OLD = "payments-before-profile-history";
    public static final String PROFILE_STORE = "card-profile-store";
    public static final Duration PROFILE_IDLENESS = Duration.ofSeconds(5);

    private PaymentEnrichment() {}

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, CardProfile> profiles = builder.table(
                PROFILES,
                Consumed.with(Serdes.String(), JsonSerde.of(CardProfile.class))
                        .withWatermarks(
                                WatermarkStrategy.forMonotonousTimestamps().withIdleness(PROFILE_IDLENESS)),
                Materialized.<String, CardProfile>as(PROFILE_STORE).versioned(Duration.ofDays(1)));
        builder.stream(PAYMENTS, Consumed.with(Serdes.String(), JsonSerde.of(Payment.class)))
                .filter((card, payment) -> payment != null) // a null on the payments topic is no payment
                .leftJoin(
                        profiles,
                        EnrichedPayment::new,
                        Joined.<String, Payment>aligned().withName("enrich").withLateRecordsTo(TOO_OLD))
                .to(ENRICHED, Produced.with(Serdes.String(), JsonSerde.of(EnrichedPayment.class)));
        return builder.build();
    }
}
