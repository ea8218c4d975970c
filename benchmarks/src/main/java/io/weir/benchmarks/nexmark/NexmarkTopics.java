package io.weir.benchmarks.nexmark;

import java.util.List;
import java.util.Set;

/**
 * The topics of a Nexmark stream: one per entity, and q13's side input ({@link SideInput}); four different,
 * non-blank names.
 */
public record NexmarkTopics(String persons, String auctions, String bids, String sideInput) {

    public NexmarkTopics {
        List<String> names = List.of(persons, auctions, bids, sideInput);
        if (names.stream().anyMatch(String::isBlank) || Set.copyOf(names).size() != names.size()) {
            throw new IllegalArgumentException(
                    "The Nexmark topics must be four different, non-blank names, not " + names);
        }
    }

    /** The topics of a stream whose names all start with {@code prefix}: {@code <prefix>persons} and so on. */
    public static NexmarkTopics prefixed(String prefix) {
        return new NexmarkTopics(prefix + "persons", prefix + "auctions", prefix + "bids", prefix + "side-input");
    }

    /** The four names: persons, auctions, bids, side input. */
    public List<String> all() {
        return List.of(persons, auctions, bids, sideInput);
    }
}
