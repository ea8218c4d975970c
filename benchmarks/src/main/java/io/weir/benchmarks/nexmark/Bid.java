package io.weir.benchmarks.nexmark;

/** A bid of {@code price} (in cents) by {@code bidder} on {@code auction}, placed through {@code channel}. */
public record Bid(long auction, long bidder, long price, String channel, String url, long dateTime, String extra)
        implements Event {

    @Override
    public long key() {
        return auction;
    }
}
