package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Input of the enrichment example: first a profile for each of {@link #PROFILED} cards, then payments
 * ({@link PaymentGenerator}) by {@link #CARDS} cards, so a few cards never have a profile; now and then a
 * holder moves country.
 */
final class EnrichmentGenerator implements InputGenerator {

    static final int PROFILED = 1_000;
    static final int CARDS = 1_010;
    private static final List<String> HOLDERS = List.of("Ana", "Bo", "Chen", "Dara", "Emeka", "Femi", "Gita", "Hugo");
    private static final List<String> COUNTRIES = List.of("PT", "SE", "CN", "IE", "NG", "DE", "IN", "FR");

    private final PaymentGenerator payments;
    private final Random random;
    private final Serializer<CardProfile> serializer =
            JsonSerde.of(CardProfile.class).serializer();
    private boolean profilesSent;

    EnrichmentGenerator(long seed) {
        this.payments = new PaymentGenerator(PaymentEnrichment.PAYMENTS, CARDS, seed);
        this.random = new Random(seed + 1);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        if (!profilesSent) {
            for (int n = 1; n <= PROFILED; n++) {
                out.add(profile(n, now));
            }
            profilesSent = true;
        } else if (random.nextDouble() < 0.05) {
            out.add(profile(1 + random.nextInt(PROFILED), now));
        }
        out.addAll(payments.next(now, due));
        return out;
    }

    private ProducerRecord<byte[], byte[]> profile(int n, long now) {
        String card = PaymentGenerator.card(n);
        CardProfile p =
                new CardProfile(card, HOLDERS.get(n % HOLDERS.size()), COUNTRIES.get(random.nextInt(COUNTRIES.size())));
        return InputGenerator.record(PaymentEnrichment.PROFILES, card, now, p, serializer);
    }
}
