package io.weir.benchmarks.nexmark;

/** One event of Nexmark's online auction: a new person, a new auction, or a bid. */
public sealed interface Event permits Person, Auction, Bid {

    /** When the event happened: its event time, in epoch milliseconds. */
    long dateTime();

    /** The key of the event's record in its topic: a person's or an auction's id, a bid's auction. */
    long key();
}
