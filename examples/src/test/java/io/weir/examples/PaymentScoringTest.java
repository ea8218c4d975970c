package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The payment-scoring example on the TestDriver, calling a real local scoring service over HTTP. */
class PaymentScoringTest {

    private static final int PAYMENTS = 60;

    @Test
    void everyPaymentIsScoredByTheServiceOnceAndEachCardsInTheOrderPaid() {
        try (ScoringServer server = ScoringServer.start(Duration.ofMillis(20));
                ScoringClient client = new ScoringClient(server.uri());
                TestDriver driver = new TestDriver(PaymentScoring.topology(client::score))) {
            TestInputTopic<String, Payment> in =
                    driver.input(FraudAlerts.PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class));
            TestOutputTopic<String, ScoredPayment> out =
                    driver.output(PaymentScoring.SCORED, Serdes.String(), JsonSerde.of(ScoredPayment.class));
            for (int i = 0; i < PAYMENTS; i++) {
                String card = "card-" + (i % 4);
                in.pipe(card, new Payment("p" + i, card, 1_000L * (i + 1), 1_000L * i), 1_000L * i);
            }
            List<ScoredPayment> scored = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                driver.advanceTime(Duration.ofMillis(1));
                scored.addAll(out.readValues());
                return scored.size() >= PAYMENTS;
            });
            assertEquals(PAYMENTS, scored.size(), "each payment once");
            Map<String, List<Long>> paidOrder = new HashMap<>();
            for (ScoredPayment s : scored) {
                Payment p = s.payment();
                assertEquals(ScoringServer.score(p.card(), p.amountCents()), s.score(), "the service's score");
                paidOrder.computeIfAbsent(p.card(), c -> new ArrayList<>()).add(p.paidAt());
            }
            paidOrder.forEach((card, times) ->
                    assertEquals(times.stream().sorted().toList(), times, card + "'s payments in the order paid"));
        }
    }

    private static String messages(Throwable error) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }

    @Test
    void aServiceThatStaysDownStopsTheApplicationOnceTheRetriesAreSpent() {
        ScoringServer server = ScoringServer.start(Duration.ofMillis(1));
        server.close();
        try (ScoringClient client = new ScoringClient(server.uri());
                TestDriver driver = new TestDriver(PaymentScoring.topology(client::score))) {
            driver.input(FraudAlerts.PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class))
                    .pipe("card-1", new Payment("p1", "card-1", 500, 0), 0);
            RuntimeException stopped = assertThrows(
                    RuntimeException.class,
                    () -> await().atMost(Duration.ofSeconds(30)).until(() -> {
                        driver.advanceTime(Duration.ofMillis(100));
                        return false;
                    }));
            assertFalse(stopped instanceof ConditionTimeoutException, "the application kept running");
            assertTrue(messages(stopped).contains(PaymentScoring.OPERATOR), "the error names the operator: " + stopped);
        }
    }
}
