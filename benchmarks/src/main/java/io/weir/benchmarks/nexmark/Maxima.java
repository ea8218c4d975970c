package io.weir.benchmarks.nexmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An accumulator of the largest measure seen and every item that reached it, as a {@code long[]}:
 * {@code [max, item..., item...]}, each item {@code width} longs. q5 keeps the auctions with the most
 * bids in a window this way, q7 the bids with the highest price. Ties keep every item: the queries return
 * all of them.
 */
final class Maxima {

    /** The accumulator before anything was added. */
    static final long[] EMPTY = {Long.MIN_VALUE};

    private Maxima() {}

    /** {@code accumulator} with {@code item} measured {@code measure} added; a new array when it changes. */
    static long[] add(long[] accumulator, long measure, long... item) {
        if (measure < accumulator[0]) {
            return accumulator;
        }
        if (measure > accumulator[0]) {
            long[] fresh = new long[1 + item.length];
            fresh[0] = measure;
            System.arraycopy(item, 0, fresh, 1, item.length);
            return fresh;
        }
        long[] more = Arrays.copyOf(accumulator, accumulator.length + item.length);
        System.arraycopy(item, 0, more, accumulator.length, item.length);
        return more;
    }

    /**
     * The text of an accumulator: the maximum, then its items sorted, each item's longs joined by
     * {@code :} — the same whatever order the items came in.
     */
    static String text(long[] accumulator, int width) {
        List<String> items = new ArrayList<>();
        for (int i = 1; i + width <= accumulator.length; i += width) {
            StringBuilder item = new StringBuilder();
            for (int j = 0; j < width; j++) {
                item.append(j == 0 ? "" : ":").append(accumulator[i + j]);
            }
            items.add(item.toString());
        }
        items.sort(null);
        return accumulator[0] + "," + items;
    }
}
