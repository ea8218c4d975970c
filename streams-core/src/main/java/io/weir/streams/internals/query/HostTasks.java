package io.weir.streams.internals.query;

import io.weir.streams.internals.topology.TaskId;

import java.util.Set;

/** The tasks one instance runs ({@code active}) and those it keeps standby copies of. Immutable. */
public record HostTasks(Set<TaskId> active, Set<TaskId> standbys) {

    public HostTasks {
        active = Set.copyOf(active);
        standbys = Set.copyOf(standbys);
    }
}
