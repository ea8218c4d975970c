package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One topic Weir makes for an application, with the configuration it needs to lose nothing, which Weir
 * creates it with and checks on a topic that exists already (made by an operator, by an earlier version,
 * or changed since), as Kafka Streams does since KIP-698:
 * <ul>
 *   <li>a key-value store's changelog is compacted, and only compacted: time-based deletion would take
 *       rows that have not changed for {@code retention.ms}, and a restore would silently lose them;</li>
 *   <li>a window or session store's changelog is compacted and deleted after at least the store's
 *       retention (its windows' span, allowed lateness and a day), so that expired windows leave it and
 *       live ones do not;</li>
 *   <li>a repartition topic is not compacted (records of one key are all needed) and keeps records until
 *       Weir deletes what its readers committed past ({@code retention.ms=-1}): its records carry event
 *       times, which time-based retention would judge. It accepts any timestamp; finite timestamp limits
 *       are only warned of, since a record they refuse fails the thread naming them.</li>
 * </ul>
 * A topic that breaks a rule is refused at start with the command that fixes it.
 */
record InternalTopic(String name, Kind kind, int partitions, long retentionMs) {

    /** What the topic holds. */
    enum Kind {
        CHANGELOG,
        WINDOWED_CHANGELOG,
        REPARTITION
    }

    static InternalTopic changelog(String name, int partitions, long retentionMs) {
        return retentionMs < 0
                ? new InternalTopic(name, Kind.CHANGELOG, partitions, -1)
                : new InternalTopic(name, Kind.WINDOWED_CHANGELOG, partitions, retentionMs);
    }

    static InternalTopic repartition(String name, int partitions) {
        return new InternalTopic(name, Kind.REPARTITION, partitions, -1);
    }

    Map<String, String> configs() {
        return switch (kind) {
            case CHANGELOG -> Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
            case WINDOWED_CHANGELOG ->
                Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG,
                        TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(retentionMs));
            case REPARTITION ->
                Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG,
                        TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.RETENTION_MS_CONFIG,
                        "-1",
                        TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG,
                        Long.toString(Long.MAX_VALUE),
                        TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG,
                        Long.toString(Long.MAX_VALUE));
        };
    }

    NewTopic newTopic(Optional<Short> replication) {
        return new NewTopic(name, Optional.of(partitions), replication).configs(configs());
    }

    /** What makes an existing topic lose data, each with its fix; empty when it is fine. */
    List<String> problems(int actualPartitions, Config config) {
        List<String> problems = new ArrayList<>();
        if (actualPartitions != partitions) {
            problems.add(name + " has " + actualPartitions + " partitions but the topology needs " + partitions
                    + ": delete it (Weir makes it again; a changelog's state is rebuilt from the input only by a "
                    + "reset) or restore the source topics' partition count");
        }
        Set<String> policy = policy(config);
        long retention = longValue(config, TopicConfig.RETENTION_MS_CONFIG, -1);
        switch (kind) {
            case CHANGELOG -> {
                if (!policy.equals(Set.of(TopicConfig.CLEANUP_POLICY_COMPACT))) {
                    problems.add(name + " has cleanup.policy=" + String.join(",", policy) + ": a store's changelog "
                            + "must be compacted only, or rows not updated for retention.ms are lost from it; "
                            + fix("cleanup.policy=compact"));
                }
            }
            case WINDOWED_CHANGELOG -> {
                if (!policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                    problems.add(name + " has cleanup.policy=" + String.join(",", policy) + ": a window store's "
                            + "changelog must be compacted; " + fix("cleanup.policy=[compact,delete]"));
                }
                if (policy.contains(TopicConfig.CLEANUP_POLICY_DELETE) && retention >= 0 && retention < retentionMs) {
                    problems.add(name + " has retention.ms=" + retention + ", shorter than the " + retentionMs
                            + " ms its windows live: live windows would be lost from it; "
                            + fix("retention.ms=" + retentionMs));
                }
            }
            case REPARTITION -> {
                if (policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                    problems.add(name + " has cleanup.policy=" + String.join(",", policy) + ": compaction would "
                            + "drop records of a key before they are read; " + fix("cleanup.policy=delete"));
                }
                if (retention >= 0) {
                    problems.add(name + " has retention.ms=" + retention + ": records not read within it (an "
                            + "application down that long, or replaying old event times) would be deleted unread; "
                            + "Weir deletes what its readers committed past, so " + fix("retention.ms=-1"));
                }
            }
        }
        return problems;
    }

    /** What is worth knowing of an existing topic but loses nothing: a repartition topic's timestamp limits. */
    List<String> warnings(Config config) {
        if (kind != Kind.REPARTITION) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        for (String limit : List.of(
                TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG,
                TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG)) {
            long value = longValue(config, limit, Long.MAX_VALUE);
            if (value != Long.MAX_VALUE) {
                warnings.add(name + " has " + limit + "=" + value + ": a record whose event time is further from "
                        + "now fails the thread; " + fix(limit + "=" + Long.MAX_VALUE));
            }
        }
        return warnings;
    }

    private String fix(String setting) {
        return "fix: kafka-configs.sh --bootstrap-server <servers> --alter --entity-type topics --entity-name " + name
                + " --add-config " + setting;
    }

    private static Set<String> policy(Config config) {
        String value = value(config, TopicConfig.CLEANUP_POLICY_CONFIG);
        if (value == null) {
            return Set.of(TopicConfig.CLEANUP_POLICY_DELETE);
        }
        return Arrays.stream(value.split(",")).map(String::trim).collect(Collectors.toSet());
    }

    private static long longValue(Config config, String name, long absent) {
        String value = value(config, name);
        return value == null ? absent : Long.parseLong(value);
    }

    private static @Nullable String value(Config config, String name) {
        ConfigEntry entry = config.get(name);
        return entry == null ? null : entry.value();
    }
}
