package io.weir.streams.internals.topology;

/** The graph name of the source node reading a topic: one source node per topic. */
public final class SourceNames {

    private SourceNames() {}

    public static String of(String topic) {
        return "source:" + topic;
    }
}
