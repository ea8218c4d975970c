package io.weir.streams.internals.topology;

/** The graph names of source nodes: {@code source:<topic>}, then {@code source:<topic>-2}, ... for later reads of it. */
public final class SourceNames {

    private SourceNames() {}

    public static String of(String topic) {
        return "source:" + topic;
    }

    /** The name of the {@code n}-th read of {@code topic} (1 for the first). */
    public static String of(String topic, int n) {
        return n == 1 ? of(topic) : of(topic) + "-" + n;
    }
}
