package io.weir.streams.internals.task;

/** A task: one sub-topology on one partition number. Printed {@code <subtopology>_<partition>}, as in state dirs. */
public record TaskId(int subtopology, int partition) implements Comparable<TaskId> {

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
