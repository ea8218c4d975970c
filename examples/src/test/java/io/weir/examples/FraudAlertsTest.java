package io.weir.examples;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.weir.streams.test.Times.millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fraud-alerts example on the TestDriver: threshold 5 payments per card per minute. */
class FraudAlertsTest {

    private final TestDriver driver = new TestDriver(FraudAlerts.topology(5));
    private final TestInputTopic<String, Payment> payments =
            driver.input(FraudAlerts.PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class));
    private final TestOutputTopic<String, FraudAlert> alerts =
            driver.output(FraudAlerts.ALERTS, Serdes.String(), JsonSerde.of(FraudAlert.class));
    private final TestOutputTopic<String, Payment> late =
            driver.output(FraudAlerts.LATE_PAYMENTS, Serdes.String(), JsonSerde.of(Payment.class));

    @AfterEach
    void close() {
        driver.close();
    }

    private void pay(String id, String card, String time) {
        payments.pipe(card, new Payment(id, card, 1_000, millis(time)));
    }

    @Test
    void aCardPayingMoreThanTheThresholdInAMinuteRaisesOneAlertWhenTheMinuteIsComplete() {
        for (int i = 1; i <= 6; i++) {
            pay("p" + i, "card-1", "12:00:1" + i);
        }
        pay("q1", "card-2", "12:01:04");
        assertTrue(alerts.isEmpty(), "the watermark (12:00:58.999) has not passed 12:01 yet");

        pay("q2", "card-2", "12:01:05");

        List<OutputRecord<String, FraudAlert>> fired = alerts.readAll();
        assertEquals(1, fired.size());
        assertEquals(
                new FraudAlert("card-1", millis("12:00:00"), millis("12:01:00"), 6),
                fired.get(0).value());
        assertEquals(PaneInfo.Timing.ON_TIME, fired.get(0).pane().orElseThrow().timing());
    }

    @Test
    void aCardAtTheThresholdRaisesNoAlert() {
        for (int i = 1; i <= 5; i++) {
            pay("p" + i, "card-1", "12:00:1" + i);
        }
        driver.endOfInput();
        assertTrue(alerts.isEmpty());
    }

    @Test
    void repeatsOfAPaymentIdAreCountedOnce() {
        for (int i = 1; i <= 5; i++) {
            pay("p" + i, "card-1", "12:00:1" + i);
        }
        pay("p3", "card-1", "12:00:13");
        pay("p3", "card-1", "12:00:13");
        driver.endOfInput();
        assertTrue(alerts.isEmpty(), "five distinct payments: the two repeats did not count");
    }

    @Test
    void aPaymentWithinTheAllowedLatenessRaisesTheAlertLate() {
        for (int i = 1; i <= 5; i++) {
            pay("p" + i, "card-1", "12:00:1" + i);
        }
        pay("q1", "card-2", "12:02:00");
        assertTrue(alerts.isEmpty(), "12:00–12:01 fired on time with 5 payments: no alert");

        pay("p6", "card-1", "12:00:30");

        OutputRecord<String, FraudAlert> alert = alerts.readOne();
        assertEquals(6, alert.value().payments());
        assertEquals(PaneInfo.Timing.LATE, alert.pane().orElseThrow().timing());
        assertEquals(1, driver.metrics().get(FraudAlerts.COUNTS, WeirMetrics.LATE_RECORDS_ADDED));
    }

    @Test
    void aPaymentLaterThanTheAllowedLatenessGoesToTheLateTopicAndIsCounted() {
        pay("p1", "card-1", "12:00:10");
        pay("q1", "card-2", "12:03:05");

        pay("p2", "card-1", "12:00:20");

        OutputRecord<String, Payment> record = late.readOne();
        assertEquals("p2", record.value().paymentId());
        assertEquals(LateRecord.Reason.LATE.name(), record.header(LateRecord.REASON_HEADER));
        assertEquals(1, driver.metrics().get(FraudAlerts.COUNTS, WeirMetrics.LATE_RECORDS_DROPPED));
        assertEquals(1, driver.metrics().get(FraudAlerts.COUNTS, WeirMetrics.SIDE_OUTPUT_RECORDS));
    }
}
