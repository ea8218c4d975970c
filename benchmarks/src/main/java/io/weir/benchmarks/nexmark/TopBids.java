package io.weir.benchmarks.nexmark;

import java.util.Comparator;

/**
 * How the bids on an auction rank: the highest price first, then the earliest, then the lowest bidder.
 * q9's winning bid is the first of them; q19 keeps the first few in an accumulator of longs, {@code
 * [price, dateTime, bidder, price, dateTime, bidder, ...]} in rank order, the same bytes in both engines'
 * stores ({@link LongArraySerde}).
 */
final class TopBids {

    /** The accumulator before any bid. */
    static final long[] EMPTY = {};

    /** The bids in rank order: the best first. */
    static final Comparator<Bid> ORDER =
            (a, b) -> compare(a.price(), a.dateTime(), a.bidder(), b.price(), b.dateTime(), b.bidder());

    private static final int WIDTH = 3;

    private TopBids() {}

    /** The better of two bids; {@code first} if they rank the same. */
    static Bid better(Bid first, Bid second) {
        return ORDER.compare(second, first) < 0 ? second : first;
    }

    /**
     * {@code top}, the best {@code n} bids at most, with {@code bid} ranked in after those that rank the
     * same; a new array when it changes.
     */
    static long[] add(long[] top, Bid bid, int n) {
        int count = top.length / WIDTH;
        int at = count;
        while (at > 0
                && compare(
                                bid.price(),
                                bid.dateTime(),
                                bid.bidder(),
                                top[(at - 1) * WIDTH],
                                top[(at - 1) * WIDTH + 1],
                                top[(at - 1) * WIDTH + 2])
                        < 0) {
            at--;
        }
        if (at >= n) {
            return top;
        }
        int kept = Math.min(count + 1, n);
        long[] more = new long[kept * WIDTH];
        System.arraycopy(top, 0, more, 0, at * WIDTH);
        more[at * WIDTH] = bid.price();
        more[at * WIDTH + 1] = bid.dateTime();
        more[at * WIDTH + 2] = bid.bidder();
        System.arraycopy(top, at * WIDTH, more, (at + 1) * WIDTH, (kept - at - 1) * WIDTH);
        return more;
    }

    /** The accumulator of {@code ranked}, bids already in rank order. */
    static long[] of(Iterable<Bid> ranked) {
        long[] top = EMPTY;
        for (Bid bid : ranked) {
            top = add(top, bid, Integer.MAX_VALUE);
        }
        return top;
    }

    /** The text of an accumulator: {@code price:dateTime:bidder} per bid, best first, joined by commas. */
    static String text(long[] top) {
        Object[] items = new Object[top.length / WIDTH];
        for (int i = 0; i < items.length; i++) {
            items[i] = top[i * WIDTH] + ":" + top[i * WIDTH + 1] + ":" + top[i * WIDTH + 2];
        }
        return Rows.of(items);
    }

    /** The rank order of two bids given by price, time and bidder: negative if the first ranks before. */
    static int compare(long price, long time, long bidder, long otherPrice, long otherTime, long otherBidder) {
        if (price != otherPrice) {
            return Long.compare(otherPrice, price);
        }
        if (time != otherTime) {
            return Long.compare(time, otherTime);
        }
        return Long.compare(bidder, otherBidder);
    }
}
