package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;

/**
 * Payments enriched with their card's profile: a stream-table join written with a keyed processor, since
 * Weir has no table type yet.
 *
 * <ul>
 *   <li>Inputs: {@value #PAYMENTS} and the compacted {@value #PROFILES}, both keyed by card and with the
 *       same number of partitions (so one task sees a card's payments and its profile).</li>
 *   <li>The processor keeps each card's latest profile in a logged store ({@value #PROFILE_STORE}), restored
 *       on whichever instance takes the task over. A payment is joined with the profile the task holds when
 *       the payment is processed: a join in processing order, as Kafka Streams' stream-table join, not by
 *       event time. A payment whose card has no profile yet goes out with a null profile (a left join).</li>
 *   <li>Output: {@value #ENRICHED}, {@link EnrichedPayment}s keyed by card.</li>
 * </ul>
 */
public final class PaymentEnrichment {

    /** Not {@code payments}: the fraud-alerts example writes its own input there, on the same cluster. */
    public static final String PAYMENTS = "card-payments";

    public static final String PROFILES = "card-profiles";
    public static final String ENRICHED = "payments-enriched";
    public static final String PROFILE_STORE = "card-profile-store";

    private PaymentEnrichment() {}

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, CardUpdate> profiles = builder.stream(
                        PROFILES, Consumed.with(Serdes.String(), JsonSerde.of(CardProfile.class)))
                .mapValues(CardUpdate::profileChange);
        builder.stream(PAYMENTS, Consumed.with(Serdes.String(), JsonSerde.of(Payment.class)))
                .filter((card, payment) -> payment != null) // a null on the payments topic is no payment
                .mapValues(CardUpdate::of)
                .merge(profiles)
                .groupByKey()
                .process(
                        () -> new ProfileLookup(PROFILE_STORE),
                        Materialized.<String, CardProfile>as(PROFILE_STORE)
                                .withKeySerde(Serdes.String())
                                .withValueSerde(JsonSerde.of(CardProfile.class)))
                .to(ENRICHED, Produced.with(Serdes.String(), JsonSerde.of(EnrichedPayment.class)));
        return builder.build();
    }
}
