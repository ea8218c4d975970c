package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples' input generators keep the promises their Javadoc makes. */
class GeneratorsTest {

    private static final long T0 = 1_800_000_000_000L;

    @Test
    void appEventsAreNeverAheadOfTheWallClockAndComeAtTheRequestedRate() {
        Duration run = Duration.ofMinutes(5);
        AppEventGenerator generator = new AppEventGenerator(7, run);
        long produced = 0;
        long firstEventTime = Long.MAX_VALUE;
        for (long now = T0; now <= T0 + run.toMillis(); now += 100) {
            List<ProducerRecord<byte[], byte[]>> records = generator.next(now, 50);
            assertEquals(50, records.size(), "every due record goes to some active user");
            for (ProducerRecord<byte[], byte[]> r : records) {
                assertTrue(r.timestamp() <= now, "an event at " + r.timestamp() + " is ahead of the wall clock " + now);
                firstEventTime = Math.min(firstEventTime, r.timestamp());
            }
            produced += records.size();
        }
        assertEquals(50L * (run.toMillis() / 100 + 1), produced);
        assertTrue(
                T0 - firstEventTime >= run.toMillis() * (AppEventGenerator.SPEED - 1),
                "the run replays " + AppEventGenerator.SPEED + " times its own length");
    }

    @Test
    void paymentsCardsScaleWithTheRateSoAnOrdinaryCardStaysUnderTheThreshold() {
        int rate = 2_000;
        PaymentGenerator generator = new PaymentGenerator("payments", PaymentGenerator.cardsFor(rate), 11);
        JsonSerde<Payment> serde = JsonSerde.of(Payment.class);
        Map<String, Integer> perCardAndMinute = new HashMap<>();
        long records = 0;
        long offline = 0;
        for (long now = T0; now < T0 + 60_000; now += 100) {
            for (ProducerRecord<byte[], byte[]> r : generator.next(now, rate / 10)) {
                Payment p = serde.deserializer().deserialize("payments", r.value());
                perCardAndMinute.merge(p.card() + "@" + p.paidAt() / 60_000, 1, Integer::sum);
                offline += now - p.paidAt() >= 30_000 ? 1 : 0;
                records++;
            }
        }
        long overThreshold = perCardAndMinute.values().stream()
                .filter(n -> n > FraudAlerts.DEFAULT_THRESHOLD)
                .count();
        assertTrue(
                overThreshold <= 15,
                overThreshold + " card-minutes over the threshold: about 6 sprees a minute, " + "not ordinary cards");
        assertTrue(
                offline > records * 0.005 && offline < records * 0.015,
                offline + " of " + records + " from offline phones");
    }
}
