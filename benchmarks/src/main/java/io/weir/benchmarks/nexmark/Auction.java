package io.weir.benchmarks.nexmark;

/** An item put up for auction by {@code seller}, open from {@code dateTime} until {@code expires}. */
public record Auction(
        long id,
        String itemName,
        String description,
        long initialBid,
        long reserve,
        long dateTime,
        long expires,
        long seller,
        long category,
        String extra)
        implements Event {

    @Override
    public long key() {
        return id;
    }
}
