package io.weir.benchmarks;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The word count's input, generated once from a fixed seed before anything is measured: lines of 4 to
 * 12 words drawn from a vocabulary where a few words are common and most are rare (the square of a
 * uniform draw picks the word's rank), so both a hot set and a long tail of keys are counted. Also the
 * expected count per word, to check each engine's output.
 */
public final class WordCountInput {

    private final String[] lines;
    private final Map<String, Long> expected = new HashMap<>();
    private final long words;

    public WordCountInput(int lineCount, int vocabulary, long seed) {
        Random random = new Random(seed);
        lines = new String[lineCount];
        long total = 0;
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < lineCount; i++) {
            line.setLength(0);
            int n = 4 + random.nextInt(9);
            for (int w = 0; w < n; w++) {
                double u = random.nextDouble();
                String word = "w" + (int) (u * u * vocabulary);
                line.append(w == 0 ? "" : " ").append(word);
                expected.merge(word, 1L, Long::sum);
            }
            total += n;
            lines[i] = line.toString();
        }
        words = total;
    }

    public int size() {
        return lines.length;
    }

    public String line(int i) {
        return lines[i];
    }

    /** The count of every word in all the lines. */
    public Map<String, Long> expected() {
        return Collections.unmodifiableMap(expected);
    }

    /** How many words all the lines hold. */
    public long words() {
        return words;
    }
}
