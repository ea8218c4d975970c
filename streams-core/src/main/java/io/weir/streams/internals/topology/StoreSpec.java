package io.weir.streams.internals.topology;

import io.weir.streams.state.StoreType;

/**
 * A state store a topology declares: each task gets its own instance. Logged stores have a changelog
 * topic; unlogged ones ({@code Materialized.withLoggingDisabled()}) write none, create none and are
 * never restored. A window store's changelog is {@code compact,delete} and keeps records for
 * {@code retentionMs} (window span plus allowed lateness plus a day, as Kafka Streams does), so
 * expired windows leave it; {@code retentionMs < 0} means a compacted key-value changelog.
 */
public record StoreSpec(String name, StoreType type, boolean logged, long retentionMs) {

    /** {@code <application.id>-<store>-changelog}. */
    public String changelogTopic(String applicationId) {
        return InternalTopics.name(applicationId, name + "-changelog");
    }
}
