package io.weir.streams;

import io.weir.streams.internals.config.ForeignSettings;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.state.RocksDbConfigSetter;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The settings of a {@link WeirStreams} instance, in Kafka's config style. Every key is defined once
 * (type, default, validator, documentation; see {@link #configDef()}), which also generates the
 * configuration reference in the docs. A value that fails validation is reported with its key.
 *
 * <p>Client settings pass through: {@code consumer.*}, {@code producer.*} and {@code admin.*} keys go
 * to those clients with the prefix removed, and common client keys without a prefix (security,
 * SASL, SSL, {@code client.dns.lookup}, ...) go to all three. Weir's own choices for its clients
 * (group id, isolation level, transactional id, ...) cannot be overridden: they carry the guarantees.
 *
 * <p>No setting is ignored: a key that is neither Weir's nor a client setting is refused at
 * construction, and a Kafka Streams setting Weir does not implement is refused with what to do
 * instead (the configuration reference lists them).
 */
public final class StreamsConfig extends AbstractConfig {

    /**
     * The application's name (required): the consumer group id and the prefix of every internal topic and of
     * the state directory.
     */
    public static final String APPLICATION_ID = "application.id";
    /** The brokers to connect to first, as {@code host:port} pairs (required). */
    public static final String BOOTSTRAP_SERVERS = CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG;
    /** {@link #EXACTLY_ONCE} (the default), {@link #EXACTLY_ONCE_V2} or {@link #AT_LEAST_ONCE}. */
    public static final String PROCESSING_GUARANTEE = "processing.guarantee";
    /** Processing threads per instance, each with its own consumer and producer; default 1. */
    public static final String NUM_STREAM_THREADS = "num.stream.threads";
    /** How often a thread commits, in milliseconds; default 100 under exactly-once, 30000 under at-least-once. */
    public static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
    /**
     * How often a thread commits while it is behind its input, in milliseconds; default {@link
     * #COMMIT_INTERVAL_MS} (no difference). See {@link #commitIntervalBehindMs()}.
     */
    public static final String COMMIT_INTERVAL_BEHIND_MS = "commit.interval.behind.ms";
    /** The directory of the RocksDB stores; default {@code <java.io.tmpdir>/weir-<user.name>}. */
    public static final String STATE_DIR = "state.dir";
    /**
     * How long a task's state directory stays on disk once the instance no longer holds the task (as an active
     * task, a standby or a warm-up copy), in milliseconds; default 600000.
     */
    public static final String STATE_CLEANUP_DELAY_MS = "state.cleanup.delay.ms";
    /** The replication factor of the internal topics Weir creates; default -1, the broker's default. */
    public static final String REPLICATION_FACTOR = "replication.factor";
    /**
     * The write-back cache size of the whole instance, in bytes, shared by its tasks; default 64 MiB. A full cache
     * evicts what it read and, if that is not enough, commits its thread's tasks early.
     */
    public static final String STATESTORE_CACHE_MAX_BYTES = "statestore.cache.max.bytes";
    /**
     * The bound on the native memory of all RocksDB stores of the instance (block cache, index and filter blocks,
     * memtables), in bytes; default -1, no shared bound (each store sizes its own).
     */
    public static final String ROCKSDB_MEMORY_MAX_BYTES = "rocksdb.memory.max.bytes";
    /** The share of {@link #ROCKSDB_MEMORY_MAX_BYTES} that memtables may take; default 0.5. */
    public static final String ROCKSDB_MEMORY_WRITE_BUFFER_RATIO = "rocksdb.memory.write.buffer.ratio";
    /**
     * A class implementing {@link io.weir.streams.state.RocksDbConfigSetter}, called with the options of every
     * RocksDB store before it opens; default none.
     */
    public static final String ROCKSDB_CONFIG_SETTER = "rocksdb.config.setter";
    /** The longest a thread blocks in {@code poll()} waiting for records, in milliseconds; default 100. */
    public static final String POLL_MS = "poll.ms";
    /**
     * How far ahead of the wall clock an event time may be before the record is refused as invalid, in
     * milliseconds, for sources whose watermark strategy sets none; default one hour, -1 for no limit.
     */
    public static final String MAX_FUTURE_SKEW_MS = "max.future.skew.ms";
    /**
     * Whether a store whose changelog was deleted and recreated empty starts empty (true) or fails its task
     * (false, the default).
     */
    public static final String CHANGELOG_DELETED_REBUILD = "changelog.deleted.rebuild";
    /**
     * How often a thread deletes the repartition records its tasks have committed past, in milliseconds;
     * default 30000.
     */
    public static final String REPARTITION_PURGE_INTERVAL_MS = "repartition.purge.interval.ms";
    /**
     * The {@code host:port} where this instance answers queries, published to the other instances for routing;
     * default empty.
     */
    public static final String APPLICATION_SERVER = "application.server";
    /**
     * The static membership id of the instance; default {@code <application.id>-<process id>}, empty for
     * dynamic membership.
     */
    public static final String GROUP_INSTANCE_ID = "group.instance.id";
    /** Standby copies of each task's state kept by other instances; default 0. */
    public static final String NUM_STANDBY_REPLICAS = "num.standby.replicas";
    /** Warm-up copies, in the whole group at once, of tasks about to move to another instance; default 2. */
    public static final String MAX_WARMUP_REPLICAS = "max.warmup.replicas";
    /** The changelog records a copy of a task's state may miss and still count as caught up; default 10000. */
    public static final String ACCEPTABLE_RECOVERY_LAG = "acceptable.recovery.lag";
    /**
     * How long an instance warming up copies waits before asking for a new assignment, in milliseconds; default
     * 600000.
     */
    public static final String PROBING_REBALANCE_INTERVAL_MS = "probing.rebalance.interval.ms";
    /**
     * The Weir group protocol version an instance speaks at most (a number, e.g. {@code 5}); default none, the
     * newest this release speaks. Not needed for a rolling upgrade between adjacent releases, which negotiate
     * the version on their own; set it to keep a group able to take back instances of an older release.
     */
    public static final String UPGRADE_FROM = "upgrade.from";

    /**
     * {@link #PROCESSING_GUARANTEE}: outputs, changelog writes and consumed offsets commit in one transaction
     * per thread.
     */
    public static final String EXACTLY_ONCE = "exactly_once";
    /** Kafka Streams' name for {@link #EXACTLY_ONCE}, accepted so that its configurations carry over. */
    public static final String EXACTLY_ONCE_V2 = "exactly_once_v2";

    /** {@link #PROCESSING_GUARANTEE}: plain commits, lower latency; after a failure some output may repeat. */
    public static final String AT_LEAST_ONCE = "at_least_once";

    /** The prefix of settings passed, without it, to the consumers only. */
    public static final String CONSUMER_PREFIX = "consumer.";
    /** The prefix of settings passed, without it, to the producers only. */
    public static final String PRODUCER_PREFIX = "producer.";
    /** The prefix of settings passed, without it, to the admin client only. */
    public static final String ADMIN_PREFIX = "admin.";
    /**
     * Settings for the topology's serdes: when any is given, Weir calls {@code configure(settings, isKey)},
     * prefix removed, on every serde instance of the topology once, at construction (e.g. {@code
     * serde.schema.registry.url} for Confluent's serdes). Without any, serdes are used as given.
     */
    public static final String SERDE_PREFIX = "serde.";

    private static final long EXACTLY_ONCE_COMMIT_INTERVAL_MS = 100;
    private static final long AT_LEAST_ONCE_COMMIT_INTERVAL_MS = 30_000;

    /** Every key Weir reads, with its documentation; private because a {@link ConfigDef} is mutable. */
    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(
                    APPLICATION_ID,
                    ConfigDef.Type.STRING,
                    ConfigDef.NO_DEFAULT_VALUE,
                    new ConfigDef.NonEmptyString(),
                    ConfigDef.Importance.HIGH,
                    "The application's name: the consumer group id, and the prefix of every internal topic "
                            + "(changelogs, repartition topics) and of the state directory. Instances with the same id share the work.")
            .define(
                    BOOTSTRAP_SERVERS,
                    ConfigDef.Type.LIST,
                    ConfigDef.NO_DEFAULT_VALUE,
                    new ConfigDef.NonNullValidator(),
                    ConfigDef.Importance.HIGH,
                    CommonClientConfigs.BOOTSTRAP_SERVERS_DOC)
            .define(
                    PROCESSING_GUARANTEE,
                    ConfigDef.Type.STRING,
                    EXACTLY_ONCE,
                    ConfigDef.ValidString.in(EXACTLY_ONCE, EXACTLY_ONCE_V2, AT_LEAST_ONCE),
                    ConfigDef.Importance.MEDIUM,
                    "exactly_once: output, changelog writes, side outputs and consumed offsets are committed in one Kafka "
                            + "transaction per thread; read the output with isolation.level=read_committed (exactly_once_v2, Kafka "
                            + "Streams' name, means the same). at_least_once: "
                            + "plain commits, lower latency, and after a failure some output may repeat.")
            .define(
                    NUM_STREAM_THREADS,
                    ConfigDef.Type.INT,
                    1,
                    ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.MEDIUM,
                    "Processing threads per instance, each with its own consumer and producer.")
            .define(
                    COMMIT_INTERVAL_MS,
                    ConfigDef.Type.LONG,
                    null,
                    ConfigDef.Importance.MEDIUM,
                    "How often a thread commits (ms). Default 100 under exactly_once (output becomes visible at commit), "
                            + "30000 under at_least_once.")
            .define(
                    COMMIT_INTERVAL_BEHIND_MS,
                    ConfigDef.Type.LONG,
                    null,
                    ConfigDef.Importance.LOW,
                    "How often a thread commits (ms) while it is behind its input: while its consumer reports records "
                            + "not yet read on a partition of its active tasks. Once it has caught up, commit.interval.ms "
                            + "applies again, so latency at low load does not change. Fewer, larger transactions let a "
                            + "lagging thread catch up sooner (a key updated many times between two commits goes to its "
                            + "changelog and downstream once); its output becomes visible at most this late. At least "
                            + "commit.interval.ms; a transaction is still committed once it has lived half of "
                            + "transaction.timeout.ms, and when the caches are full. Default: commit.interval.ms.")
            .define(
                    STATE_DIR,
                    ConfigDef.Type.STRING,
                    null,
                    ConfigDef.Importance.MEDIUM,
                    "Where RocksDB stores live: <state.dir>/<application.id>/<task>/<store>. One instance at a "
                            + "time holds <state.dir>/<application.id> (a lock; a second one fails to start), which "
                            + "must belong to the user running it and is made owner-only (rwx------). Default: "
                            + "<java.io.tmpdir>/weir-<user.name>, a directory of the user's own; give each instance "
                            + "on one machine its own.")
            .define(
                    STATE_CLEANUP_DELAY_MS,
                    ConfigDef.Type.LONG,
                    600_000L,
                    ConfigDef.Range.atLeast(0),
                    ConfigDef.Importance.LOW,
                    "How long (ms) a task's directory under <state.dir>/<application.id> stays once no thread of the "
                            + "instance holds the task as an active task, a standby or a warm-up copy; then it is "
                            + "deleted (checked at most every minute). Until then, the task coming back here restores "
                            + "only what its state lacks, and the instance reports the state to the group leader, "
                            + "which may give the task back for that reason. At start, the directories of tasks of "
                            + "sub-topologies the topology does not have are deleted at once; other entries are left.")
            .define(
                    REPLICATION_FACTOR,
                    ConfigDef.Type.SHORT,
                    (short) -1,
                    ConfigDef.Importance.MEDIUM,
                    "Replication factor of the internal topics Weir creates; -1 uses the broker's default.")
            .define(
                    STATESTORE_CACHE_MAX_BYTES,
                    ConfigDef.Type.LONG,
                    64L * 1024 * 1024,
                    ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.MEDIUM,
                    "Write-back cache size of the whole instance (the heap its stores' caches may take, whatever the "
                            + "number of tasks it holds), split evenly between its stream threads; the tasks of a thread, "
                            + "standby copies included, share the thread's part. When it is full, entries read from the "
                            + "stores are evicted, from any store of the thread, and if the writes since the last commit "
                            + "alone fill it, the thread commits all its tasks early. Kafka Streams' default is 10 MiB; "
                            + "Weir's cache also holds what it reads, so a larger one saves reads from RocksDB.")
            .define(
                    ROCKSDB_MEMORY_MAX_BYTES,
                    ConfigDef.Type.LONG,
                    -1L,
                    ConfigDef.Range.atLeast(-1),
                    ConfigDef.Importance.MEDIUM,
                    "One bound on the native memory of all RocksDB stores of the instance, whatever the number of "
                            + "tasks it holds: every store uses one shared block cache of this size, which also holds "
                            + "their index and filter blocks and is charged for their memtables (a shared write buffer "
                            + "manager, rocksdb.memory.write.buffer.ratio of the bound). Memory of pinned blocks and "
                            + "iterators in use may pass it briefly. -1: no shared bound, each store has its own 16 MiB "
                            + "block cache and up to three 16 MiB memtables per column family, so memory grows with the "
                            + "tasks. Not part of it: the JVM heap, and each open store's own fixed memory, about 0.2 MiB "
                            + "(the rocksdb-open-stores gauge counts the stores).")
            .define(
                    ROCKSDB_MEMORY_WRITE_BUFFER_RATIO,
                    ConfigDef.Type.DOUBLE,
                    0.5,
                    ConfigDef.Range.between(0.05, 0.95),
                    ConfigDef.Importance.LOW,
                    "The share of rocksdb.memory.max.bytes that memtables may take before the largest is flushed; "
                            + "the rest caches data, index and filter blocks. Used only with rocksdb.memory.max.bytes.")
            .define(
                    ROCKSDB_CONFIG_SETTER,
                    ConfigDef.Type.CLASS,
                    null,
                    ConfigDef.Importance.LOW,
                    "Expert: a class implementing io.weir.streams.state.RocksDbConfigSetter (with a public no-argument "
                            + "constructor), called with each RocksDB store's options, and the shared cache and write "
                            + "buffer manager when rocksdb.memory.max.bytes is set, before the store opens. Weir sets "
                            + "again, after it, the options its guarantees rest on (atomic flush, the write-ahead log, "
                            + "column families). Kafka Streams' RocksDBConfigSetter classes do not fit this interface.")
            .define(
                    MAX_FUTURE_SKEW_MS,
                    ConfigDef.Type.LONG,
                    3_600_000L,
                    ConfigDef.Range.atLeast(-1),
                    ConfigDef.Importance.MEDIUM,
                    "The maximum future skew of every source whose WatermarkStrategy sets none: a record whose event "
                            + "time is further ahead of the wall clock is invalid, refused by event-time operators and "
                            + "never moves the watermark, so one record stamped years ahead cannot make every later "
                            + "record late. One hour, the limit Kafka 4 brokers put on record timestamps by default; "
                            + "-1 trusts every event time.")
            .define(
                    CHANGELOG_DELETED_REBUILD,
                    ConfigDef.Type.BOOLEAN,
                    false,
                    ConfigDef.Importance.LOW,
                    "What a task does when a store's changelog is a new, empty topic while the store was built from "
                            + "another (the changelog was deleted, and Weir made it again at start): false fails the "
                            + "task naming the store, since its state is gone with the topic; true starts the store "
                            + "empty. A changelog recreated with records rebuilds the store from them either way.")
            .define(
                    POLL_MS,
                    ConfigDef.Type.LONG,
                    100L,
                    ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.LOW,
                    "The longest a thread blocks in poll() waiting for records.")
            .define(
                    REPARTITION_PURGE_INTERVAL_MS,
                    ConfigDef.Type.LONG,
                    30_000L,
                    ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.LOW,
                    "How often (ms) a thread deletes the repartition-topic records its tasks have committed past. "
                            + "Repartition topics keep records without a time limit (their timestamps are event times, "
                            + "which time-based retention would judge by), so this purge is what bounds them.")
            .define(
                    APPLICATION_SERVER,
                    ConfigDef.Type.STRING,
                    "",
                    new Endpoint(),
                    ConfigDef.Importance.LOW,
                    "host:port where this instance answers queries, published to the other instances with the "
                            + "assignment so that WeirStreams.metadataForKey can say which instance holds a key. "
                            + "Weir does not listen on it: the application serves it. Empty: the instance is not "
                            + "listed for routing.")
            .define(
                    NUM_STANDBY_REPLICAS,
                    ConfigDef.Type.INT,
                    0,
                    ConfigDef.Range.atLeast(0),
                    ConfigDef.Importance.MEDIUM,
                    "Standby copies of each task's state, each kept up to date from the changelogs by another "
                            + "instance than the task's (as far as there are other instances). When the task moves, "
                            + "it goes to an instance with a copy, which replays only what its copy had not read yet. "
                            + "A copy costs the disk (or memory) of the state, and a changelog reader.")
            .define(
                    ACCEPTABLE_RECOVERY_LAG,
                    ConfigDef.Type.LONG,
                    10_000L,
                    ConfigDef.Range.atLeast(0),
                    ConfigDef.Importance.LOW,
                    "Changelog records an instance's copy of a task's state may miss and still count as caught up. "
                            + "A stateful task becomes active only on a caught-up instance while there is one: when the "
                            + "balance wants it on another instance (scaling out, or the copy's keeper is full), it stays "
                            + "where it is and the other instance warms up a copy first (max.warmup.replicas). Larger: "
                            + "tasks move sooner, with a longer restore before they run.")
            .define(
                    MAX_WARMUP_REPLICAS,
                    ConfigDef.Type.INT,
                    2,
                    ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.LOW,
                    "Warm-up copies in the whole group at once: copies, beyond num.standby.replicas, that an instance "
                            + "keeps of a task it is to take over once caught up. Each reads a changelog, so this bounds "
                            + "the extra load on the brokers while tasks move; the other moves wait for the next ones.")
            .define(
                    PROBING_REBALANCE_INTERVAL_MS,
                    ConfigDef.Type.LONG,
                    600_000L,
                    ConfigDef.Range.atLeast(5_000),
                    ConfigDef.Importance.LOW,
                    "How long an instance with warm-up copies waits before asking for a new assignment when none "
                            + "of them has caught up. An instance asks at once when one catches up (within "
                            + "acceptable.recovery.lag), so this only bounds how stale the leader's view of a slow "
                            + "warm-up gets.")
            .define(
                    UPGRADE_FROM,
                    ConfigDef.Type.STRING,
                    null,
                    new ProtocolVersion(),
                    ConfigDef.Importance.LOW,
                    "The Weir group protocol version this instance speaks at most, from "
                            + GroupProtocol.OLDEST
                            + " to "
                            + GroupProtocol.LATEST
                            + "; by default the newest. Instances of adjacent Weir releases share a group without "
                            + "it: the group uses the lowest version any member speaks and moves up when the last "
                            + "older member leaves. Set it during an upgrade to keep the group at the older version "
                            + "(and so able to take instances of the older release back) until every instance "
                            + "runs the new release; then remove it in a second rolling restart.")
            .define(
                    GROUP_INSTANCE_ID,
                    ConfigDef.Type.STRING,
                    null,
                    ConfigDef.Importance.MEDIUM,
                    "Static membership (KIP-345): each thread's consumer joins the group as <group.instance.id>-<thread "
                            + "index>, so an instance that restarts within the session timeout gets its tasks back without "
                            + "a rebalance, and a crashed instance that restarts at once does not wait for its old session to "
                            + "expire. Default: <application.id>-<process id>, the process id kept in the state directory "
                            + "(static membership is on). Set it to an empty value for dynamic membership, where every start "
                            + "and stop rebalances the group. Closing a static member does not leave the group unless asked "
                            + "(WeirStreams.close(CloseOptions)).");

    /** {@link #APPLICATION_SERVER}'s check: empty, or host:port. */
    /** A group protocol version this release speaks, for {@link #UPGRADE_FROM}. */
    private static final class ProtocolVersion implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, @Nullable Object value) {
            if (value == null) {
                return;
            }
            String text = value.toString().trim();
            int version;
            try {
                version = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new ConfigException(
                        name,
                        value,
                        "a Weir group protocol version (a number from " + GroupProtocol.OLDEST + " to "
                                + GroupProtocol.LATEST + "), not a release such as Kafka Streams' '3.4' "
                                + "(docs/guides/operating.md#rolling-upgrades)");
            }
            if (version < GroupProtocol.OLDEST || version > GroupProtocol.LATEST) {
                throw new ConfigException(
                        name,
                        value,
                        "this release speaks Weir group protocol versions " + GroupProtocol.OLDEST + " to "
                                + GroupProtocol.LATEST);
            }
        }

        @Override
        public String toString() {
            return "a Weir group protocol version, " + GroupProtocol.OLDEST + " to " + GroupProtocol.LATEST;
        }
    }

    private static final class Endpoint implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value != null && !value.toString().isEmpty()) {
                try {
                    HostInfo.parse(value.toString());
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }
        }

        @Override
        public String toString() {
            return "empty, or host:port";
        }
    }

    /** Keys of client settings that go to every client without a prefix. */
    private static final Set<String> SHARED_CLIENT_KEYS = Set.of(
            CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
            CommonClientConfigs.CLIENT_DNS_LOOKUP_CONFIG,
            CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG,
            CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG,
            CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG,
            CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG,
            CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG,
            CommonClientConfigs.METADATA_MAX_AGE_CONFIG,
            CommonClientConfigs.CONNECTIONS_MAX_IDLE_MS_CONFIG,
            CommonClientConfigs.RECEIVE_BUFFER_CONFIG,
            CommonClientConfigs.SEND_BUFFER_CONFIG,
            CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG,
            CommonClientConfigs.METADATA_RECOVERY_REBOOTSTRAP_TRIGGER_MS_CONFIG);

    private final Map<String, Object> originals;

    /**
     * Every key Weir reads, with its type, default, validator and documentation: a copy, free to change.
     *
     * @return a new copy of the definition of every setting
     */
    public static ConfigDef configDef() {
        return new ConfigDef(DEFINITION);
    }

    /**
     * Reads and validates {@code props}, reporting every refused key and invalid value at once.
     *
     * @param props the settings, keyed by name; values as strings or as their typed values
     * @throws ConfigException naming the key of a missing or invalid setting, or of a setting Weir does not
     *     read: a Kafka Streams setting it does not implement (with what to do instead) or an unknown key
     */
    public StreamsConfig(Map<String, ?> props) {
        super(DEFINITION, checked(props), false);
        this.originals = new HashMap<>(props);
        if (commitIntervalBehindMs() < commitIntervalMs()) {
            throw new ConfigException(
                    COMMIT_INTERVAL_BEHIND_MS,
                    commitIntervalBehindMs(),
                    "must be at least "
                            + COMMIT_INTERVAL_MS + " (" + commitIntervalMs()
                            + " ms): a thread behind its input commits less "
                            + "often, never more");
        }
    }

    /**
     * {@code props}, once every setting in it is known to be valid; else one exception that lists every
     * refused key and every missing or invalid value, so a port learns all it must change in one run.
     */
    private static Map<String, ?> checked(Map<String, ?> props) {
        List<String> problems =
                new ArrayList<>(ForeignSettings.refusals(props, DEFINITION.names(), StreamsConfig::isClientSetting));
        Map<String, Object> known = new HashMap<>();
        props.forEach((key, value) -> {
            if (DEFINITION.names().contains(key)) {
                known.put(key, value);
            }
        });
        // ConfigDef.validate parses objects as well as strings, whatever its signature says.
        @SuppressWarnings("unchecked")
        Map<String, String> asStrings = (Map<String, String>) (Map<String, ?>) known;
        for (ConfigValue value : DEFINITION.validate(asStrings)) {
            value.errorMessages().forEach(error -> problems.add("Setting '" + value.name() + "': " + error));
            if (value.name().equals(COMMIT_INTERVAL_MS)
                    && value.errorMessages().isEmpty()
                    && value.value() instanceof Long interval
                    && interval < 1) {
                problems.add("Setting '" + COMMIT_INTERVAL_MS + "' must be at least 1, was " + interval);
            }
        }
        String threadInstanceId = CONSUMER_PREFIX + GROUP_INSTANCE_ID;
        if (props.containsKey(threadInstanceId)) {
            problems.add("Setting '" + threadInstanceId + "' is refused: set group.instance.id instead: Weir gives "
                    + "each thread's consumer its own instance id, <group.instance.id>-<thread index>");
        }
        if (problems.isEmpty()) {
            return props;
        }
        String hint = problems.stream().anyMatch(p -> p.endsWith(ForeignSettings.UNKNOWN))
                ? ". " + ForeignSettings.knownSettings(DEFINITION.names())
                : "";
        throw new ConfigException(
                problems.size() == 1
                        ? problems.get(0) + hint
                        : problems.size() + " settings to change:\n  " + String.join("\n  ", problems) + hint);
    }

    /**
     * The application's id ({@link #APPLICATION_ID}).
     *
     * @return the id, never empty
     */
    public String applicationId() {
        return getString(APPLICATION_ID);
    }

    /**
     * The bootstrap servers ({@link #BOOTSTRAP_SERVERS}).
     *
     * @return the servers as one comma-separated string
     */
    public String bootstrapServers() {
        return String.join(",", getList(BOOTSTRAP_SERVERS));
    }

    /**
     * Whether the processing guarantee is exactly-once ({@link #PROCESSING_GUARANTEE}).
     *
     * @return true for {@code exactly_once} or {@code exactly_once_v2}, false for {@code at_least_once}
     */
    public boolean exactlyOnce() {
        return !AT_LEAST_ONCE.equals(getString(PROCESSING_GUARANTEE));
    }

    /**
     * Whether a store whose changelog was recreated empty starts empty ({@link #CHANGELOG_DELETED_REBUILD}).
     *
     * @return true to start such a store empty, false to fail its task
     */
    public boolean rebuildDeletedChangelogs() {
        return getBoolean(CHANGELOG_DELETED_REBUILD);
    }

    /**
     * {@link #MAX_FUTURE_SKEW_MS}, -1 for none.
     *
     * @return the maximum future skew in milliseconds, or -1
     */
    public long maxFutureSkewMs() {
        return getLong(MAX_FUTURE_SKEW_MS);
    }

    /**
     * The commit interval ({@link #COMMIT_INTERVAL_MS}), or the guarantee's default when it is not set.
     *
     * @return the interval in milliseconds
     */
    public long commitIntervalMs() {
        Long configured = getLong(COMMIT_INTERVAL_MS);
        return configured != null
                ? configured
                : exactlyOnce() ? EXACTLY_ONCE_COMMIT_INTERVAL_MS : AT_LEAST_ONCE_COMMIT_INTERVAL_MS;
    }

    /**
     * How often a thread commits while it is behind its input ({@link #COMMIT_INTERVAL_BEHIND_MS}): while its
     * consumer reports a lag on a partition of its active tasks, a commit is due this long after the last
     * instead of {@link #commitIntervalMs()}. Commits due for other reasons (full caches, a transaction at
     * half its timeout, a pane asking for one once the thread has caught up) are not delayed.
     *
     * @return the interval in milliseconds, at least {@link #commitIntervalMs()}
     */
    public long commitIntervalBehindMs() {
        Long configured = getLong(COMMIT_INTERVAL_BEHIND_MS);
        return configured != null ? configured : commitIntervalMs();
    }

    /**
     * The number of stream threads per instance ({@link #NUM_STREAM_THREADS}).
     *
     * @return at least 1
     */
    public int threads() {
        return getInt(NUM_STREAM_THREADS);
    }

    /**
     * The state directory ({@link #STATE_DIR}), or the default under {@code java.io.tmpdir} when it is not set.
     *
     * @return the directory; it need not exist yet
     */
    public Path stateDir() {
        String configured = getString(STATE_DIR);
        return configured != null
                ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "weir-" + System.getProperty("user.name"));
    }

    /**
     * How long a task's state directory stays once the instance no longer holds the task ({@link
     * #STATE_CLEANUP_DELAY_MS}).
     *
     * @return the delay in milliseconds
     */
    public long stateCleanupDelayMs() {
        return getLong(STATE_CLEANUP_DELAY_MS);
    }

    /**
     * The replication factor of internal topics ({@link #REPLICATION_FACTOR}).
     *
     * @return the factor, or -1 for the broker's default
     */
    public short replicationFactor() {
        return getShort(REPLICATION_FACTOR);
    }

    /**
     * The write-back cache size of the instance ({@link #STATESTORE_CACHE_MAX_BYTES}).
     *
     * @return the size in bytes
     */
    public long cacheMaxBytes() {
        return getLong(STATESTORE_CACHE_MAX_BYTES);
    }

    /**
     * The bound on the RocksDB memory of the instance ({@link #ROCKSDB_MEMORY_MAX_BYTES}), empty for none.
     *
     * @return the bound in bytes, if one is set
     */
    public OptionalLong rocksDbMemoryMaxBytes() {
        long bound = getLong(ROCKSDB_MEMORY_MAX_BYTES);
        return bound < 0 ? OptionalLong.empty() : OptionalLong.of(bound);
    }

    /**
     * The share of the RocksDB bound memtables may take ({@link #ROCKSDB_MEMORY_WRITE_BUFFER_RATIO}).
     *
     * @return a ratio between 0.05 and 0.95
     */
    public double rocksDbWriteBufferRatio() {
        return getDouble(ROCKSDB_MEMORY_WRITE_BUFFER_RATIO);
    }

    /**
     * A new instance of the configured {@link #ROCKSDB_CONFIG_SETTER}, or empty when none is set.
     *
     * @return the setter, made with its public no-argument constructor
     * @throws ConfigException if the class does not implement {@link RocksDbConfigSetter} or cannot be made
     */
    public Optional<RocksDbConfigSetter> rocksDbConfigSetter() {
        Class<?> type = getClass(ROCKSDB_CONFIG_SETTER);
        if (type == null) {
            return Optional.empty();
        }
        if (!RocksDbConfigSetter.class.isAssignableFrom(type)) {
            throw new ConfigException(
                    ROCKSDB_CONFIG_SETTER,
                    type.getName(),
                    "does not implement " + RocksDbConfigSetter.class.getName()
                            + (isKafkaStreamsSetter(type)
                                    ? " (it is a Kafka Streams RocksDBConfigSetter: port its body to Weir's interface)"
                                    : ""));
        }
        try {
            return Optional.of(
                    (RocksDbConfigSetter) type.getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ConfigException(
                    ROCKSDB_CONFIG_SETTER,
                    type.getName(),
                    "cannot be made with a public no-argument constructor: " + e);
        }
    }

    private static boolean isKafkaStreamsSetter(Class<?> type) {
        for (Class<?> i : type.getInterfaces()) {
            if (i.getName().equals("org.apache.kafka.streams.state.RocksDBConfigSetter")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The longest a thread blocks in a poll ({@link #POLL_MS}).
     *
     * @return the time in milliseconds
     */
    public long pollMs() {
        return getLong(POLL_MS);
    }

    /**
     * {@link #APPLICATION_SERVER}, or empty when not set.
     *
     * @return the endpoint this instance serves queries on, if set
     */
    public Optional<HostInfo> applicationServer() {
        String value = getString(APPLICATION_SERVER);
        return value.isEmpty() ? Optional.empty() : Optional.of(HostInfo.parse(value));
    }

    /**
     * The static membership id of the instance with {@code processId} ({@link #GROUP_INSTANCE_ID}), or
     * empty for dynamic membership.
     *
     * @param processId the instance's process id, kept in its state directory
     * @return the static membership id, or empty for dynamic membership
     */
    public Optional<String> groupInstanceId(String processId) {
        String value = getString(GROUP_INSTANCE_ID);
        if (value == null) {
            return Optional.of(applicationId() + "-" + processId);
        }
        return value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /**
     * The number of standby copies of each task's state ({@link #NUM_STANDBY_REPLICAS}).
     *
     * @return 0 or more
     */
    public int standbyReplicas() {
        return getInt(NUM_STANDBY_REPLICAS);
    }

    /**
     * The number of warm-up copies in the whole group at once ({@link #MAX_WARMUP_REPLICAS}).
     *
     * @return at least 1
     */
    public int maxWarmupReplicas() {
        return getInt(MAX_WARMUP_REPLICAS);
    }

    /**
     * How far behind its changelogs a copy of a task's state may be and still count as caught up ({@link
     * #ACCEPTABLE_RECOVERY_LAG}).
     *
     * @return the lag in changelog records
     */
    public long acceptableRecoveryLag() {
        return getLong(ACCEPTABLE_RECOVERY_LAG);
    }

    /**
     * How long an instance with warm-up copies waits before asking for a new assignment ({@link
     * #PROBING_REBALANCE_INTERVAL_MS}).
     *
     * @return the time in milliseconds
     */
    public long probingRebalanceIntervalMs() {
        return getLong(PROBING_REBALANCE_INTERVAL_MS);
    }

    /**
     * How often committed repartition records are deleted ({@link #REPARTITION_PURGE_INTERVAL_MS}).
     *
     * @return the interval in milliseconds
     */
    public long repartitionPurgeIntervalMs() {
        return getLong(REPARTITION_PURGE_INTERVAL_MS);
    }

    /**
     * The group protocol version {@link #UPGRADE_FROM} holds this instance at, if any.
     *
     * @return the version, or empty to speak the newest this release speaks
     */
    public OptionalInt upgradeFrom() {
        String version = getString(UPGRADE_FROM);
        return version == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(version.trim()));
    }

    private static boolean isSharedClientSetting(String key) {
        return SHARED_CLIENT_KEYS.contains(key) || key.startsWith("sasl.") || key.startsWith("ssl.");
    }

    private static boolean isClientSetting(String key) {
        return isSharedClientSetting(key)
                || key.startsWith(CONSUMER_PREFIX)
                || key.startsWith(PRODUCER_PREFIX)
                || key.startsWith(ADMIN_PREFIX)
                || key.startsWith(SERDE_PREFIX);
    }

    /**
     * The {@code serde.}-prefixed settings, prefix removed; empty when none is given.
     *
     * @return a new mutable map of the serde settings, keyed without the {@code serde.} prefix
     */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> out = new HashMap<>();
        originals.forEach((key, value) -> {
            if (key.startsWith(SERDE_PREFIX)) {
                out.put(key.substring(SERDE_PREFIX.length()), value);
            }
        });
        return out;
    }

    /**
     * Settings for one client: bootstrap, shared client keys, then the client's prefixed keys.
     *
     * @param prefix the client's prefix: {@link #CONSUMER_PREFIX}, {@link #PRODUCER_PREFIX} or {@link
     *     #ADMIN_PREFIX}
     * @return a new mutable map of the client's settings, its prefixed keys without the prefix
     */
    public Map<String, Object> clientConfig(String prefix) {
        Map<String, Object> out = new HashMap<>();
        out.put(BOOTSTRAP_SERVERS, bootstrapServers());
        originals.forEach((key, value) -> {
            if (isSharedClientSetting(key)) {
                out.put(key, value);
            }
        });
        originals.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                out.put(key.substring(prefix.length()), value);
            }
        });
        return out;
    }
}
