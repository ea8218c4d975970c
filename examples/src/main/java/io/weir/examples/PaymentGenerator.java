package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * Card payments for the fraud-alerts and enrichment examples, keyed by card.
 *
 * <ul>
 *   <li>Most payments are paid "now", give or take up to 2 s of network jitter, by one of many cards:
 *       {@link #cardsFor(int)} gives enough cards for the rate that a card pays 0.3 times a minute on
 *       average, so a card that is not on a spree stays under a threshold of 5 (6 or more payments in a
 *       minute: about once in 1.3 million card-minutes).</li>
 *   <li>{@link #OFFLINE_SHARE} come from phones that were offline: paid 30 s to 5 minutes before they
 *       arrive.</li>
 *   <li>{@link #REPEAT_SHARE} repeat a recent payment, same id (a phone retrying).</li>
 *   <li>Every 5 to 15 s of wall-clock time, a card goes on a spree: 8 payments within 3 s.</li>
 * </ul>
 */
final class PaymentGenerator implements InputGenerator {

    /** Cards paying at one record per second: a card then pays 0.3 times a minute. */
    private static final int CARDS_PER_RECORD_PER_SECOND = 200;

    static final double OFFLINE_SHARE = 0.01;
    static final double REPEAT_SHARE = 0.005;
    private static final int SPREE = 8;
    private static final int RECENT = 256;

    private final String topic;
    private final int cards;
    private final Random random;
    private final String idPrefix;
    private final Serializer<Payment> serializer = JsonSerde.of(Payment.class).serializer();
    private final Deque<Payment> recent = new ArrayDeque<>();
    private long sequence;
    private long nextSpree = Long.MIN_VALUE;

    /** @param cards how many distinct cards pay; card ids are {@code card-00001} upwards */
    PaymentGenerator(String topic, int cards, long seed) {
        this.topic = topic;
        this.cards = cards;
        this.random = new Random(seed);
        this.idPrefix = Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }

    /** The number of cards for a rate of {@code rate} records/s: 0.3 payments per card per minute, and at least 100,000. */
    static int cardsFor(int rate) {
        return Math.max(100_000, rate * CARDS_PER_RECORD_PER_SECOND);
    }

    static String card(int n) {
        return String.format("card-%05d", n);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(due + SPREE);
        for (int i = 0; i < due; i++) {
            if (!recent.isEmpty() && random.nextDouble() < REPEAT_SHARE) {
                out.add(record(random.nextBoolean() ? recent.peekFirst() : recent.peekLast()));
                continue;
            }
            long paidAt = random.nextDouble() < OFFLINE_SHARE
                    ? now - 30_000 - random.nextInt(270_000)
                    : now - random.nextInt(2_000);
            out.add(record(payment(card(1 + random.nextInt(cards)), paidAt)));
        }
        if (nextSpree == Long.MIN_VALUE) {
            nextSpree = now + 5_000 + random.nextInt(10_000);
        } else if (now >= nextSpree) {
            nextSpree = now + 5_000 + random.nextInt(10_000);
            String card = card(1 + random.nextInt(cards));
            for (int i = 0; i < SPREE; i++) {
                out.add(record(payment(card, now - random.nextInt(3_000))));
            }
        }
        return out;
    }

    private Payment payment(String card, long paidAt) {
        Payment p = new Payment(idPrefix + "-" + sequence++, card, 100 + random.nextInt(20_000), paidAt);
        recent.addLast(p);
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
        return p;
    }

    private ProducerRecord<byte[], byte[]> record(Payment p) {
        return InputGenerator.record(topic, p.card(), p.paidAt(), p, serializer);
    }
}
