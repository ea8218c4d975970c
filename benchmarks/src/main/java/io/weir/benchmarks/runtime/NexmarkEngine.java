package io.weir.benchmarks.runtime;

/**
 * What runs a Nexmark query in the benchmark: Weir, Kafka Streams, Weir committing every second while it is
 * behind its input ({@code commit.interval.behind.ms=1000}, as a pre-loaded input keeps it until the end), or
 * (for q0 only) the ceiling, a bare exactly-once consume–produce loop of Kafka's clients that no library on
 * them can beat.
 */
enum NexmarkEngine {
    WEIR("weir"),
    KAFKA_STREAMS("kafka-streams"),
    WEIR_BEHIND("weir-behind"),
    CEILING("ceiling");

    private final String id;

    NexmarkEngine(String id) {
        this.id = id;
    }

    /** The engine's name on the command line and in the report. */
    String id() {
        return id;
    }

    static NexmarkEngine byId(String id) {
        for (NexmarkEngine e : values()) {
            if (e.id.equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException(
                "Unknown engine '" + id + "'; the engines are weir, kafka-streams, weir-behind and ceiling (q0 only)");
    }
}
