package io.weir.streams.test.reference;

import java.util.List;

/**
 * A finite input, as {@link StreamGenerator} makes it: {@code partitions} partitions of each of
 * {@code topics} (read together, partition {@code p} of every topic by task {@code p}), processing
 * time starting at {@code startTime}, then {@code steps} in order, then the end of input.
 */
record GeneratedStream(List<String> topics, int partitions, long startTime, List<StreamStep> steps) {

    GeneratedStream {
        topics = List.copyOf(topics);
        steps = List.copyOf(steps);
    }

    GeneratedStream withSteps(List<StreamStep> newSteps) {
        return new GeneratedStream(topics, partitions, startTime, newSteps);
    }

    /**
     * One line per step, each followed by its note from {@code notes} (one per step, empty for none),
     * after a header line with the partitions and start time.
     */
    String describe(List<String> notes) {
        StringBuilder out = new StringBuilder()
                .append(partitions)
                .append(" partition(s) of ")
                .append(topics)
                .append(", processing time starts at ")
                .append(startTime)
                .append(", ")
                .append(steps.size())
                .append(" steps:\n");
        for (int i = 0; i < steps.size(); i++) {
            out.append("  ").append(steps.get(i));
            if (!notes.get(i).isEmpty()) {
                out.append("  (").append(notes.get(i)).append(')');
            }
            out.append('\n');
        }
        return out.append("  end of input\n").toString();
    }
}
