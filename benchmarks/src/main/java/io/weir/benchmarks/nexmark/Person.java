package io.weir.benchmarks.nexmark;

/** A person who joined the auction site, as a seller or a bidder. */
public record Person(
        long id,
        String name,
        String emailAddress,
        String creditCard,
        String city,
        String state,
        long dateTime,
        String extra)
        implements Event {

    @Override
    public long key() {
        return id;
    }
}
