package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The payment-enrichment example on the TestDriver: the profile valid when each payment was made, in any arrival order. */
class PaymentEnrichmentTest {

    private static final CardProfile ANA = new CardProfile("card-1", "Ana", "PT");
    private static final CardProfile ANA_MOVED = new CardProfile("card-1", "Ana", "ES");

    private static final Payment P1 = new Payment("p1", "card-1", 4_200, 1_000);
    private static final Payment P2 = new Payment("p2", "card-1", 4_200, 3_000);
    private static final Payment P3 = new Payment("p3", "card-1", 4_200, 5_000);
    private static final Payment P4 = new Payment("p4", "card-1", 4_200, 7_000);

    /** The enriched payments when the profiles' changes are piped first, or the payments first. */
    private static List<EnrichedPayment> run(boolean profilesFirst) {
        try (TestDriver driver = new TestDriver(PaymentEnrichment.topology())) {
            TestInputTopic<String, Payment> payments =
                    driver.input(PaymentEnrichment.PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class));
            TestInputTopic<String, CardProfile> profiles =
                    driver.input(PaymentEnrichment.PROFILES, Serdes.String(), JsonSerde.of(CardProfile.class));
            TestOutputTopic<String, EnrichedPayment> enriched =
                    driver.output(PaymentEnrichment.ENRICHED, Serdes.String(), JsonSerde.of(EnrichedPayment.class));
            Runnable profileChanges = () -> {
                profiles.pipe("card-1", ANA, 2_000);
                profiles.pipe("card-1", ANA_MOVED, 4_000);
                profiles.pipe("card-1", null, 6_000);
            };
            if (profilesFirst) {
                profileChanges.run();
            }
            for (Payment p : List.of(P1, P2, P3, P4)) {
                payments.pipe("card-1", p, p.paidAt());
            }
            if (!profilesFirst) {
                profileChanges.run();
            }
            driver.endOfInput();
            return enriched.readValues();
        }
    }

    @Test
    void eachPaymentGetsTheProfileValidWhenItWasMade() {
        assertEquals(
                Arrays.asList(
                        new EnrichedPayment(P1, null),
                        new EnrichedPayment(P2, ANA),
                        new EnrichedPayment(P3, ANA_MOVED),
                        new EnrichedPayment(P4, null)),
                run(true));
    }

    @Test
    void theResultIsTheSameWhicheverTopicArrivesFirst() {
        assertEquals(run(true), run(false));
    }

    @Test
    void theProfilesKeepTheirHistory() {
        try (TestDriver driver = new TestDriver(PaymentEnrichment.topology())) {
            TestInputTopic<String, CardProfile> profiles =
                    driver.input(PaymentEnrichment.PROFILES, Serdes.String(), JsonSerde.of(CardProfile.class));
            profiles.pipe("card-1", ANA, 2_000);
            profiles.pipe("card-1", ANA_MOVED, 4_000);
            var table = driver.versionedTable(
                    PaymentEnrichment.PROFILE_STORE, Serdes.String(), JsonSerde.of(CardProfile.class));
            assertEquals(ANA, table.get("card-1", 3_000));
            assertEquals(ANA_MOVED, table.get("card-1"));
        }
    }
}
