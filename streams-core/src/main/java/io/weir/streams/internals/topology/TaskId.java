package io.weir.streams.internals.topology;

import java.util.Optional;

/** A task: one sub-topology on one partition number. Printed {@code <subtopology>_<partition>}, as in state dirs. */
public record TaskId(int subtopology, int partition) implements Comparable<TaskId> {

    /** The task a name such as {@code 0_3} (a state directory's) prints, or empty for any other name. */
    public static Optional<TaskId> parse(String name) {
        int sep = name.indexOf('_');
        if (sep <= 0 || sep == name.length() - 1) {
            return Optional.empty();
        }
        try {
            int subtopology = Integer.parseInt(name.substring(0, sep));
            int partition = Integer.parseInt(name.substring(sep + 1));
            return subtopology < 0 || partition < 0
                    ? Optional.empty()
                    : Optional.of(new TaskId(subtopology, partition));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return subtopology + "_" + partition;
    }

    @Override
    public int compareTo(TaskId o) {
        int c = Integer.compare(subtopology, o.subtopology);
        return c != 0 ? c : Integer.compare(partition, o.partition);
    }
}
