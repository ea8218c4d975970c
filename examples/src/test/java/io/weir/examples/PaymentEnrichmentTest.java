package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The payment-enrichment example on the TestDriver. */
class PaymentEnrichmentTest {

    private static final CardProfile ANA = new CardProfile("card-1", "Ana", "PT");
    private static final CardProfile ANA_MOVED = new CardProfile("card-1", "Ana", "ES");

    private final TestDriver driver = new TestDriver(PaymentEnrichment.topology());
    private final TestInputTopic<String, Payment> payments =
            driver.input(PaymentEnrichment.PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class));
    private final TestInputTopic<String, CardProfile> profiles =
            driver.input(PaymentEnrichment.PROFILES, Serdes.String(), JsonSerde.of(CardProfile.class));
    private final TestOutputTopic<String, EnrichedPayment> enriched =
            driver.output(PaymentEnrichment.ENRICHED, Serdes.String(), JsonSerde.of(EnrichedPayment.class));

    @AfterEach
    void close() {
        driver.close();
    }

    private Payment pay(String id, long at) {
        Payment p = new Payment(id, "card-1", 4_200, at);
        payments.pipe("card-1", p, at);
        return p;
    }

    @Test
    void eachPaymentGetsTheProfileTheTaskHeldWhenThePaymentArrived() {
        Payment beforeAnyProfile = pay("p1", 1_000);
        profiles.pipe("card-1", ANA, 2_000);
        Payment second = pay("p2", 3_000);
        profiles.pipe("card-1", ANA_MOVED, 4_000);
        Payment third = pay("p3", 5_000);
        profiles.pipe("card-1", null, 6_000);
        Payment afterDelete = pay("p4", 7_000);

        assertEquals(
                Arrays.asList(
                        new EnrichedPayment(beforeAnyProfile, null),
                        new EnrichedPayment(second, ANA),
                        new EnrichedPayment(third, ANA_MOVED),
                        new EnrichedPayment(afterDelete, null)),
                enriched.readValues());
    }

    @Test
    void theProfilesLiveInTheProcessorsLoggedStore() {
        profiles.pipe("card-1", ANA, 1_000);
        profiles.pipe("card-2", new CardProfile("card-2", "Bo", "SE"), 1_000);
        profiles.pipe("card-2", null, 2_000);
        assertEquals(
                Map.of("card-1", ANA),
                driver.keyValueStore(
                        PaymentEnrichment.PROFILE_STORE, Serdes.String(), JsonSerde.of(CardProfile.class)));
        assertEquals(List.of(), enriched.readValues());
    }
}
