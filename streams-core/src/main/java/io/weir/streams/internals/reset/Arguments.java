package io.weir.streams.internals.reset;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The command line of {@code bin/weir-reset}: what it asks, or a message saying what is wrong with it.
 *
 * @param request the reset asked for, or null when only the usage was asked ({@code --help})
 * @param dryRun whether to print the plan and change nothing
 */
public record Arguments(@Nullable ResetRequest request, boolean dryRun) {

    /** The usage, printed by {@code --help} and after a mistake. */
    public static final String USAGE = """
            Usage: weir-reset --application-id ID --bootstrap-servers HOST:PORT[,...] [options]

            Resets a Weir application so that it processes its input again from a chosen point: commits the
            input topics' offsets of its consumer group, deletes its internal topics (<ID>-...-changelog,
            <ID>-...-repartition) and clears its local state directory. Refuses while members of the group are
            alive or an instance holds the state directory. Run it with --dry-run first.

              --application-id ID          the application (its application.id)
              --bootstrap-servers LIST     the Kafka cluster
              --config-file FILE           admin client properties (security settings, ...)
              --input-topics T1,T2         the topics whose offsets to reset (default: the topics the group
                                           has committed offsets on, internal topics excepted)
              --intermediate-topics T1,T2  user topics the application writes and reads back: moved to their end
              Where the input topics go (one; default --to-earliest):
              --to-earliest                each partition's first offset
              --to-latest                  each partition's end (skip the input written so far)
              --to-datetime TIME           the first record at or after TIME, e.g. 2024-05-01T12:00:00Z
                                           or 2024-05-01T14:00:00+02:00 (the end when there is none)
              --by-duration DURATION       the first record at or after now minus DURATION, e.g. PT2H or P1D
              --to-offset N                offset N in every partition (kept within the partition's offsets)
              --offset TOPIC:PARTITION=N   this partition to offset N, whatever the above (repeatable)
              --from-file FILE             lines TOPIC,PARTITION,OFFSET, as --offset
              --state-dir DIR              also clear this machine's state, DIR/ID (the application's state.dir);
                                           run it on every machine that ran an instance, or delete DIR/ID there
              --force                      remove members still in the group (static members of stopped
                                           instances, until their session times out); only when none runs
              --timeout DURATION           how long each request to Kafka may take (default PT60S)
              --dry-run                    print the plan, change nothing
              --help                       print this

            Exit status: 0 done (or planned, with --dry-run), 1 refused, 2 wrong arguments, 3 failed.""";

    /**
     * Reads {@code args}.
     *
     * @param clock the clock {@code --by-duration} counts back from
     * @throws IllegalArgumentException saying what is wrong with the arguments
     */
    public static Arguments parse(List<String> args, Clock clock) {
        String applicationId = null;
        String bootstrap = null;
        Map<String, Object> clientConfig = new HashMap<>();
        List<String> inputs = null;
        List<String> intermediate = List.of();
        Position position = null;
        String positionFlag = null;
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        Path stateDir = null;
        boolean force = false;
        boolean dryRun = false;
        Duration timeout = Duration.ofSeconds(60);
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            Position next = null;
            switch (flag) {
                case "--help", "-h" -> {
                    return new Arguments(null, false);
                }
                case "--application-id" -> applicationId = value(args, ++i, flag);
                case "--bootstrap-servers", "--bootstrap-server" -> bootstrap = value(args, ++i, flag);
                case "--config-file" -> clientConfig.putAll(properties(Path.of(value(args, ++i, flag))));
                case "--input-topics" -> inputs = topics(value(args, ++i, flag), flag);
                case "--intermediate-topics" -> intermediate = topics(value(args, ++i, flag), flag);
                case "--to-earliest" -> next = new Position.Earliest();
                case "--to-latest" -> next = new Position.Latest();
                case "--to-datetime" -> next = new Position.AtTime(time(value(args, ++i, flag)));
                case "--by-duration" ->
                    next = new Position.AtTime(clock.instant().minus(duration(value(args, ++i, flag), flag)));
                case "--to-offset" -> next = new Position.AtOffset(number(value(args, ++i, flag), flag));
                case "--offset" -> partitionOffset(value(args, ++i, flag), flag, offsets);
                case "--from-file" -> offsetsFile(Path.of(value(args, ++i, flag)), offsets);
                case "--state-dir" -> stateDir = Path.of(value(args, ++i, flag));
                case "--force" -> force = true;
                case "--timeout" -> timeout = duration(value(args, ++i, flag), flag);
                case "--dry-run" -> dryRun = true;
                default -> throw new IllegalArgumentException("Unknown option " + flag);
            }
            if (next != null) {
                if (position != null) {
                    throw new IllegalArgumentException(
                            "Choose one of --to-earliest, --to-latest, --to-datetime, --by-duration and --to-offset; "
                                    + "both " + positionFlag + " and " + flag + " were given");
                }
                position = next;
                positionFlag = flag;
            }
        }
        if (applicationId == null || applicationId.isBlank()) {
            throw new IllegalArgumentException("--application-id is required");
        }
        if (bootstrap == null || bootstrap.isBlank()) {
            if (!clientConfig.containsKey(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("--bootstrap-servers is required");
            }
        } else {
            clientConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("--timeout must be positive: " + timeout);
        }
        return new Arguments(
                new ResetRequest(
                        applicationId,
                        clientConfig,
                        inputs,
                        intermediate,
                        position == null ? new Position.Earliest() : position,
                        offsets,
                        stateDir,
                        force,
                        timeout),
                dryRun);
    }

    private static String value(List<String> args, int at, String flag) {
        if (at >= args.size() || args.get(at).startsWith("--")) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args.get(at);
    }

    private static List<String> topics(String value, String flag) {
        List<String> topics =
                Arrays.stream(value.split(",", -1)).map(String::trim).toList();
        if (topics.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException(flag + " takes topic names separated by commas: '" + value + "'");
        }
        return topics;
    }

    private static Instant time(String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--to-datetime takes a time with its offset from UTC, such as "
                    + "2024-05-01T12:00:00Z or 2024-05-01T14:00:00.000+02:00: '" + value + "'");
        }
    }

    private static Duration duration(String value, String flag) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    flag + " takes an ISO-8601 duration, such as PT30M, PT2H or P1D: '" + value + "'");
        }
    }

    private static long number(String value, String flag) {
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0) {
                throw new IllegalArgumentException(flag + " takes an offset, 0 or more: '" + value + "'");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes an offset, 0 or more: '" + value + "'");
        }
    }

    /** {@code TOPIC:PARTITION=OFFSET}; the topic may hold colons, the last one separates the partition. */
    private static void partitionOffset(String value, String flag, Map<TopicPartition, Long> offsets) {
        int eq = value.lastIndexOf('=');
        int colon = eq < 0 ? -1 : value.lastIndexOf(':', eq);
        if (eq < 0 || colon <= 0) {
            throw new IllegalArgumentException(
                    flag + " takes TOPIC:PARTITION=OFFSET, such as orders:3=1200: '" + value + "'");
        }
        put(
                offsets,
                value.substring(0, colon),
                value.substring(colon + 1, eq),
                value.substring(eq + 1),
                flag + " " + value);
    }

    private static void put(
            Map<TopicPartition, Long> offsets, String topic, String partition, String offset, String where) {
        int p;
        try {
            p = Integer.parseInt(partition.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": the partition must be a number");
        }
        if (p < 0 || topic.isBlank()) {
            throw new IllegalArgumentException(where + ": a topic and a partition (0 or more) are needed");
        }
        TopicPartition tp = new TopicPartition(topic.trim(), p);
        Long before = offsets.put(tp, number(offset, where));
        if (before != null) {
            throw new IllegalArgumentException(where + ": partition " + tp + " is given an offset twice");
        }
    }

    private static void offsetsFile(Path file, Map<TopicPartition, Long> offsets) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read --from-file " + file + ": " + e.getMessage());
        }
        List<String> wrong = new ArrayList<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split(",", -1);
            if (parts.length != 3) {
                wrong.add(file + " line " + (n + 1) + ": expected TOPIC,PARTITION,OFFSET: '" + line + "'");
                continue;
            }
            put(offsets, parts[0], parts[1], parts[2], file + " line " + (n + 1));
        }
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", wrong));
        }
    }

    private static Map<String, Object> properties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read --config-file " + file + ": " + e.getMessage());
        }
        Map<String, Object> config = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> config.put(name, properties.getProperty(name)));
        return config;
    }
}
