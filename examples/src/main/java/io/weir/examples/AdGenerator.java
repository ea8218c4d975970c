package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Input of {@link AdClickAttribution}: impressions of 20 ads to 500 users; about one in five is clicked
 * within 20 seconds, a few clicks are sent twice (a tracker's retry), and a few come with no impression.
 */
final class AdGenerator implements InputGenerator {

    private final Random random;
    private final Serializer<AdImpression> impressions =
            JsonSerde.of(AdImpression.class).serializer();
    private final Serializer<AdClick> clicks = JsonSerde.of(AdClick.class).serializer();
    private final List<AdClick> pending = new ArrayList<>();
    private long next;

    AdGenerator(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < due; i++) {
            long id = next++;
            String user = "user-" + random.nextInt(500);
            String ad = "ad-" + random.nextInt(20);
            AdImpression shown = new AdImpression("imp-" + id, user, ad, now);
            out.add(InputGenerator.record(
                    AdClickAttribution.IMPRESSIONS, shown.impressionId(), now, shown, impressions));
            if (random.nextInt(5) == 0) {
                pending.add(new AdClick("click-" + id, user, ad, now + random.nextInt(20_000)));
            } else if (random.nextInt(50) == 0) {
                pending.add(new AdClick("click-" + id, "user-" + random.nextInt(500), ad, now));
            }
        }
        pending.removeIf(click -> {
            if (click.clickedAt() > now) {
                return false;
            }
            int copies = random.nextInt(20) == 0 ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                out.add(InputGenerator.record(
                        AdClickAttribution.CLICKS, click.clickId(), click.clickedAt(), click, clicks));
            }
            return true;
        });
        return out;
    }
}
