package io.weir.streams.internals.topology;

import io.weir.streams.state.StoreType;

/** A state store a topology declares: each task gets its own instance. Logged stores have a changelog topic. */
public record StoreSpec(String name, StoreType type, boolean logged) {

    /** {@code <application.id>-<store>-changelog}. */
    public String changelogTopic(String applicationId) {
        return InternalTopics.name(applicationId, name + "-changelog");
    }
}
