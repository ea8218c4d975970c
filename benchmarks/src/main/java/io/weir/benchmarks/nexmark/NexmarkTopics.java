package io.weir.benchmarks.nexmark;

import java.util.List;
import java.util.Set;

/** The three topics of a Nexmark stream, one per entity: three different, non-blank names. */
public record NexmarkTopics(String persons, String auctions, String bids) {

    public NexmarkTopics {
        List<String> names = List.of(persons, auctions, bids);
        if (names.stream().anyMatch(String::isBlank) || Set.copyOf(names).size() != names.size()) {
            throw new IllegalArgumentException(
                    "The Nexmark topics must be three different, non-blank names, not " + names);
        }
    }

    /** The three names: persons, auctions, bids. */
    public List<String> all() {
        return List.of(persons, auctions, bids);
    }
}
