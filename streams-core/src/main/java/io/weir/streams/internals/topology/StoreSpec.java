package io.weir.streams.internals.topology;

import io.weir.streams.internals.processor.InternalTopics;
import io.weir.streams.state.StoreType;
import org.jspecify.annotations.Nullable;

/**
 * A state store a topology declares: each task gets its own instance. Logged stores have a changelog
 * topic; unlogged ones ({@code Materialized.withLoggingDisabled()}) write none, create none and are
 * never restored. A window store's changelog is {@code compact,delete} and keeps records for
 * {@code retentionMs} (window span plus allowed lateness plus a day, as Kafka Streams does), so
 * expired windows leave it; {@code retentionMs < 0} means a compacted key-value changelog.
 *
 * <p>A source table's store ({@code StreamsBuilder.table}) has no changelog of its own: its {@code
 * source} topic is its changelog. Nothing is written for it at commit; it restores from the source
 * topic up to the offset committed for the task's input, the records processing took in.
 *
 * <p>A store users may query ({@code WeirStreams.store}) carries the view that reads its bytes as their
 * keys, windows and values: tables, windowed and session aggregations, and keyed processors' key-value
 * and window stores.
 *
 * @param source the source whose topic is the store's changelog, or null for a changelog of its own
 * @param queryable how queries read the store, or null for a store they cannot read
 */
public record StoreSpec(
        String name,
        StoreType type,
        boolean logged,
        long retentionMs,
        @Nullable SourceSpec source,
        @Nullable StoreView queryable) {

    public StoreSpec(String name, StoreType type, boolean logged, long retentionMs) {
        this(name, type, logged, retentionMs, null, null);
    }

    public StoreSpec(String name, StoreType type, boolean logged, long retentionMs, @Nullable SourceSpec source) {
        this(name, type, logged, retentionMs, source, null);
    }

    /** This store, read by queries through {@code view}. */
    public StoreSpec queryableAs(StoreView view) {
        return new StoreSpec(name, type, logged, retentionMs, source, view);
    }

    /** {@code <application.id>-<store>-changelog}, or a source table's topic. */
    public String changelogTopic(String applicationId) {
        return source != null ? source.topic(applicationId) : InternalTopics.name(applicationId, name + "-changelog");
    }

    /** Whether the store has a changelog topic of its own, which commits write and the application creates. */
    public boolean ownChangelog() {
        return logged && source == null;
    }
}
