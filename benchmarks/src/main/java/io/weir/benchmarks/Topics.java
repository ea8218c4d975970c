package io.weir.benchmarks;

/** The topic names both engines' topologies use. */
final class Topics {

    static final String INPUT = "payments";
    static final String OUTPUT = "counts-per-minute";

    private Topics() {}
}
