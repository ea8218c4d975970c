package io.weir.streams.internals.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The settings a user may carry over from Kafka Streams that Weir does not implement under that name,
 * each with what to do instead, and the check that refuses them (and any other key Weir does not read)
 * when an instance is configured: a setting is implemented or refused, never ignored.
 */
public final class ForeignSettings {

    private ForeignSettings() {}

    private static final String SERVING =
            "not implemented yet (rack-aware placement, pluggable assignors): Weir places standby and warm-up "
                    + "copies with num.standby.replicas, max.warmup.replicas and acceptable.recovery.lag";
    private static final String SERDES =
            "Weir has no default serdes: give them where the data is read or written (Consumed.with, "
                    + "Produced.with, Grouped.with, Materialized.withKeySerde/withValueSerde); settings for them go with the "
                    + "serde. prefix";
    private static final String METRICS =
            "Weir always records its metrics and registers them as JMX beans (io.weir.streams); bind them to a "
                    + "metrics library with streams-micrometer or WeirStreams.addMetricsListener; client metrics settings "
                    + "go to a client with the consumer., producer. or admin. prefix";

    private static final String INTERNAL_TOPICS =
            "not implemented: Weir creates its internal topics with the configs they need; give them others with "
                    + "kafka-configs (docs/guides/operating.md#internal-topics)";

    /** Kafka Streams settings Weir refuses, with what to do instead. */
    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry(
                    "default.interactive.query.isolation.level",
                    "Weir's queries read committed state only, always (see WeirStreams.store)"),
            Map.entry("task.assignor.class", SERVING),
            Map.entry("rack.aware.assignment.non_overlap_cost", SERVING),
            Map.entry("rack.aware.assignment.strategy", SERVING),
            Map.entry("rack.aware.assignment.tags", SERVING),
            Map.entry("rack.aware.assignment.traffic_cost", SERVING),
            Map.entry(
                    "group.protocol",
                    "Weir's instances use the classic consumer group protocol with their own assignor"),
            Map.entry(
                    "allow.os.group.write.access",
                    "Weir creates its state directories with the process's umask; set permissions on state.dir instead"),
            Map.entry(
                    "buffered.records.per.partition",
                    "Weir bounds what a poll returns with the consumer's max.poll.records (consumer.max.poll.records)"),
            Map.entry("built.in.metrics.version", METRICS),
            Map.entry("metric.reporters", METRICS),
            Map.entry("metrics.num.samples", METRICS),
            Map.entry("metrics.recording.level", METRICS),
            Map.entry("metrics.sample.window.ms", METRICS),
            Map.entry("enable.metrics.push", METRICS),
            Map.entry("cache.max.bytes.buffering", "Kafka Streams' old name: use statestore.cache.max.bytes"),
            // Weir's own earlier setting: refused with its replacement rather than as an unknown key.
            Map.entry(
                    "cache.max.bytes.per.task",
                    "Weir's write-back cache is sized per instance now, shared by its tasks: use "
                            + "statestore.cache.max.bytes (the old value times the tasks an instance holds)"),
            Map.entry(
                    "statestore.uncommitted.max.bytes",
                    "Weir's stores hold uncommitted writes in the write-back cache: use statestore.cache.max.bytes"),
            Map.entry(
                    "enable.transactional.statestores",
                    "Weir's stores are always transactional: writes reach RocksDB only after their commit"),
            Map.entry(
                    "auto.offset.reset",
                    "a consumer setting goes with the consumer. prefix: consumer.auto.offset.reset says where a task "
                            + "with no committed offset starts (default earliest)"),
            Map.entry(
                    "client.id",
                    "Weir names each client after its thread (weir-<application.id>-<process>-thread-<n>); "
                            + "set consumer.client.id or producer.client.id only with one stream thread"),
            Map.entry(
                    "config.providers",
                    "resolve externalized values before building the configuration map; client config providers go "
                            + "with the consumer., producer. or admin. prefix"),
            Map.entry("default.client.supplier", "Weir creates its own clients; configure them with prefixed settings"),
            Map.entry("default.key.serde", SERDES),
            Map.entry("default.value.serde", SERDES),
            Map.entry("default.list.key.serde.inner", SERDES),
            Map.entry("default.list.key.serde.type", SERDES),
            Map.entry("default.list.value.serde.inner", SERDES),
            Map.entry("default.list.value.serde.type", SERDES),
            Map.entry("window.size.ms", "windowed keys are read with WindowedSerdes, which knows the window"),
            Map.entry("windowed.inner.class.serde", "windowed keys are read with WindowedSerdes.of(innerSerde)"),
            Map.entry(
                    "default.deserialization.exception.handler",
                    "set a RecordErrorHandler per source with Consumed.withErrorHandler"),
            Map.entry(
                    "deserialization.exception.handler",
                    "set a RecordErrorHandler per source with Consumed.withErrorHandler"),
            Map.entry(
                    "default.production.exception.handler",
                    "set a ProductionErrorHandler per sink with Produced.withErrorHandler"),
            Map.entry(
                    "production.exception.handler",
                    "set a ProductionErrorHandler per sink with Produced.withErrorHandler"),
            Map.entry(
                    "processing.exception.handler",
                    "set a ProcessingErrorHandler with StreamsBuilder.setProcessingErrorHandler"),
            Map.entry(
                    "processing.exception.handler.global.enabled",
                    "set a ProcessingErrorHandler with StreamsBuilder.setProcessingErrorHandler"),
            Map.entry(
                    "errors.dead.letter.queue.topic.name",
                    "choose the dead-letter topic in the handler: RecordErrorHandler.deadLetterTo, "
                            + "ProcessingErrorHandler.deadLetterTo, ProductionErrorHandler.deadLetterTo"),
            Map.entry(
                    "default.timestamp.extractor",
                    "give each source its event time with Consumed.withTimestamps (the default is the record's timestamp)"),
            Map.entry(
                    "max.task.idle.ms",
                    "Weir aligns a task's inputs by their watermarks: let a quiet source release the others with "
                            + "WatermarkStrategy.withIdleness on its Consumed"),
            Map.entry("default.dsl.store", "choose a store's type with Materialized.withStoreType"),
            Map.entry("dsl.store.suppliers.class", "choose a store's type with Materialized.withStoreType"),
            Map.entry("dsl.store.format", "choose a store's type with Materialized.withStoreType"),
            Map.entry(
                    "windowstore.changelog.additional.retention.ms",
                    "a window or session store's changelog keeps the window span plus the allowed lateness plus one "
                            + "day, a fixed day; to keep more, raise the topic's retention.ms, which Weir leaves as it is"),
            Map.entry(
                    "ensure.explicit.internal.resource.naming",
                    "not implemented; name operators, stores and repartition topics with Named.as, Materialized.as, "
                            + "Grouped.with(..).withName, Repartitioned.as and the withName of Joined, StreamJoined and "
                            + "Deduplicated to keep internal names stable"),
            Map.entry("log.summary.interval.ms", "not implemented; stream threads log at start, rebalance and stop"),
            Map.entry("metadata.cluster.check.enable", "not implemented"),
            Map.entry("processor.wrapper.class", "not implemented"),
            Map.entry("state.cleanup.dir.max.age.ms", "not implemented"),
            Map.entry(
                    "task.timeout.ms",
                    "not implemented: a task whose client call times out fails its thread (see the uncaught-exception handler)"),
            Map.entry("topology.description.push.enabled", "not implemented"),
            Map.entry(
                    "topology.optimization",
                    "Weir does not rewrite topologies; read a topic once and reuse the stream instead of a second source"));

    /** Refused settings that Weir accepts at one value, because that value is what Weir does. */
    private static final Map<String, String> ACCEPTED_VALUE = Map.of("topology.optimization", "none");

    /** Prefixes of Kafka Streams settings Weir refuses, with what to do instead. */
    private static final Map<String, String> REFUSED_PREFIXES = Map.of(
            "main.consumer.", "use the consumer. prefix",
            "restore.consumer.", "use the consumer. prefix",
            "global.consumer.", "use the consumer. prefix",
            "topic.", INTERNAL_TOPICS,
            "client.tag.", SERVING);

    /** The refused Kafka Streams settings (a prefix ends with {@code *}), with advice: for the reference docs. */
    public static Map<String, String> refused() {
        Map<String, String> all = new TreeMap<>(REFUSED);
        ACCEPTED_VALUE.forEach((key, value) -> all.put(key, REFUSED.get(key) + " (" + value + " is accepted)"));
        REFUSED_PREFIXES.forEach((prefix, advice) -> all.put(prefix + "*", advice));
        return all;
    }

    /**
     * What is refused among the keys of {@code props}: every key that is not one of {@code weirKeys}, not a
     * client setting ({@code passThrough} says which are), and not a refused setting at the value Weir
     * implements; one message per key, in key order, saying what to do instead (for a key Weir does not
     * know, ending with {@link #UNKNOWN}). Empty when nothing is refused.
     */
    public static List<String> refusals(Map<String, ?> props, Set<String> weirKeys, Predicate<String> passThrough) {
        List<String> refusals = new ArrayList<>();
        for (String key : new TreeSet<>(props.keySet())) {
            if (weirKeys.contains(key) || passThrough.test(key)) {
                continue;
            }
            Object value = props.get(key);
            String accepted = ACCEPTED_VALUE.get(key);
            if (accepted != null && accepted.equals(String.valueOf(value).trim())) {
                continue;
            }
            String advice = REFUSED.get(key);
            for (Map.Entry<String, String> p : REFUSED_PREFIXES.entrySet()) {
                if (advice == null && key.startsWith(p.getKey())) {
                    advice = p.getValue();
                }
            }
            // The value stays out of the message: a mistyped key may hold a password.
            refusals.add("Setting '" + key + "' is refused: "
                    + (advice != null ? "Weir does not implement this Kafka Streams setting: " + advice : UNKNOWN));
        }
        return refusals;
    }

    /** What {@link #refusals} says of a key Weir does not know. */
    public static final String UNKNOWN = "Weir does not know this setting";

    /** Where settings go, for a message that refused an unknown key. */
    public static String knownSettings(Set<String> weirKeys) {
        return "Weir's own settings are " + new TreeSet<>(weirKeys) + "; client settings go to the clients with the "
                + "consumer., producer. or admin. prefix (security, sasl. and ssl. settings without one)";
    }
}
