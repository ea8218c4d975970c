package io.weir.examples;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Lines of words for the word count: 4 to 12 words each, from a vocabulary where a few words are common. */
final class LineGenerator implements InputGenerator {

    private static final String[] WORDS = {
        "the",
        "stream",
        "of",
        "events",
        "is",
        "a",
        "table",
        "and",
        "every",
        "change",
        "carries",
        "its",
        "old",
        "value",
        "watermark",
        "late",
        "window",
        "kafka",
        "weir",
        "count",
        "word",
        "record",
        "commit",
        "exactly",
        "once",
        "partition",
        "key",
        "time"
    };

    private final String topic;
    private final Random random;
    private final StringSerializer serializer = new StringSerializer();

    LineGenerator(String topic, long seed) {
        this.topic = topic;
        this.random = new Random(seed);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            StringBuilder line = new StringBuilder();
            int words = 4 + random.nextInt(9);
            for (int w = 0; w < words; w++) {
                // Squaring skews the choice towards the first words: a few common words, a long tail.
                double u = random.nextDouble();
                line.append(w == 0 ? "" : " ").append(WORDS[(int) (u * u * WORDS.length)]);
            }
            out.add(InputGenerator.record(topic, "line", now, line.toString(), serializer));
        }
        return out;
    }
}
