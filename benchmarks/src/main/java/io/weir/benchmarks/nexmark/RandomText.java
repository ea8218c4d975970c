package io.weir.benchmarks.nexmark;

import java.util.SplittableRandom;

/** The random text of Nexmark's events: words for names and descriptions, letters for padding. */
final class RandomText {

    private static final int MIN_WORDS_LENGTH = 3;

    private RandomText() {}

    /**
     * Lowercase letters with about one space in 13, at least 3 and fewer than {@code maxLength}
     * characters before the ends are trimmed of spaces.
     */
    static String words(SplittableRandom random, int maxLength) {
        int length = MIN_WORDS_LENGTH + random.nextInt(maxLength - MIN_WORDS_LENGTH);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = random.nextInt(13) == 0 ? ' ' : (char) ('a' + random.nextInt(26));
        }
        return new String(chars).trim();
    }

    /** Exactly {@code length} lowercase letters. */
    static String letters(SplittableRandom random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }

    /**
     * The padding that brings an event of {@code currentSize} bytes to {@code averageSize} on average:
     * letters, their count uniform within 20% of the gap either way; none if the event is already as
     * large.
     */
    static String padding(SplittableRandom random, int currentSize, int averageSize) {
        int gap = averageSize - currentSize;
        if (gap <= 0) {
            return "";
        }
        int spread = Math.round(gap * 0.2f);
        int length = gap - spread + (spread == 0 ? 0 : random.nextInt(2 * spread));
        return letters(random, length);
    }
}
