package io.weir.streams.test.kafka;

import io.weir.streams.internals.testkit.BrokerLogTail;
import io.weir.streams.internals.testkit.SecuredListeners;
import io.weir.streams.internals.testkit.TlsMaterial;
import io.weir.streams.internals.testkit.TopicAdmin;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A single-node Apache Kafka broker in KRaft mode (combined broker and controller) running inside
 * this JVM, on loopback ports picked at start.
 *
 * <p>It is configured for a one-node cluster: internal topics (consumer offsets, transaction state,
 * share-group state) have replication factor 1 and min ISR 1, {@code group.initial.rebalance.delay.ms}
 * is 0, topics are not auto-created, and the log cleaner wakes every 500 ms so compaction is
 * observable in tests. Override any broker setting with {@link #withBrokerConfig(String, String)}.
 *
 * <p>Lifecycle: {@link #start()} formats a fresh log directory (under the system temp dir unless
 * {@link #withLogDir(Path)} names one) and waits up to the startup timeout for the broker to answer.
 * {@link #stop()} keeps the data and ports so {@link #start()} resumes on them; {@link #close()}
 * stops and deletes the directory the broker created. Several brokers may run in one JVM. Methods are
 * synchronized; the object may be shared between test threads.
 *
 * <p>Why one class: its length is the broker's configuration and start-up handling (format, launch,
 * wait, report the broker's last log lines on failure), one lifecycle over one server; topic creation
 * is apart, in {@code TopicAdmin}.
 */
public final class EmbeddedKafkaBroker implements KafkaBroker {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STARTUP_GRACE = Duration.ofSeconds(30);
    private static final int LOG_TAIL_LINES = 30;

    private final Map<String, String> overrides;
    private final Duration startupTimeout;
    private final @Nullable Path requestedLogDir;
    private final int preferredPort;
    private final @Nullable BrokerSecurity security;

    private @Nullable Path baseDir;
    private int brokerPort;
    private int controllerPort;
    /** The secured broker's listeners; null for a plaintext broker. */
    private @Nullable SecuredListeners secured;

    private @Nullable Running running;
    private boolean closed;

    /** A started broker and the admin client that creates its topics. */
    private record Running(KafkaRaftServer server, TopicAdmin topics) {}

    private EmbeddedKafkaBroker(
            Map<String, String> overrides,
            Duration startupTimeout,
            @Nullable Path logDir,
            int preferredPort,
            @Nullable BrokerSecurity security) {
        this.overrides = Map.copyOf(overrides);
        this.startupTimeout = startupTimeout;
        this.requestedLogDir = logDir;
        this.preferredPort = preferredPort;
        this.security = security;
    }

    /**
     * A broker with default settings, not yet started.
     *
     * @return a new broker, to configure with {@code withXxx} and then start
     */
    public static EmbeddedKafkaBroker create() {
        return new EmbeddedKafkaBroker(Map.of(), DEFAULT_STARTUP_TIMEOUT, null, 0, null);
    }

    /**
     * Sets one broker config (e.g. {@code log.retention.ms}), overriding the kit's default.
     *
     * @param key the broker config's name
     * @param value its value, as in {@code server.properties}
     * @return a copy with that setting
     */
    public EmbeddedKafkaBroker withBrokerConfig(String key, String value) {
        Map<String, String> next = new HashMap<>(overrides);
        next.put(key, value);
        return new EmbeddedKafkaBroker(next, startupTimeout, requestedLogDir, preferredPort, security);
    }

    /**
     * How long {@link #start()} waits for the broker to answer before failing; default 60 s.
     *
     * @param timeout how long to wait; positive
     * @return a copy with that timeout
     * @throws IllegalArgumentException if {@code timeout} is null, zero or negative
     */
    public EmbeddedKafkaBroker withStartupTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("startupTimeout must be positive, was " + timeout);
        }
        return new EmbeddedKafkaBroker(overrides, timeout, requestedLogDir, preferredPort, security);
    }

    /**
     * Keeps the broker's data under {@code dir} (created if missing) instead of a fresh temp dir.
     * The caller owns {@code dir}: {@link #close()} deletes only what the broker wrote into it.
     *
     * @param dir the directory to keep the broker's data in
     * @return a copy that uses {@code dir}
     */
    public EmbeddedKafkaBroker withLogDir(Path dir) {
        return new EmbeddedKafkaBroker(overrides, startupTimeout, dir, preferredPort, security);
    }

    /**
     * Listens for clients on 127.0.0.1:{@code port} when that port is free at start, and on a free port
     * picked then otherwise (see {@link #bootstrapServers()} for the one it got). For demos that want a
     * well-known address; tests leave the port to the kit.
     *
     * @param port the client port to try first, from 1 to 65535
     * @return a copy with that preferred port
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public EmbeddedKafkaBroker withPreferredPort(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be in 1..65535, was " + port);
        }
        return new EmbeddedKafkaBroker(overrides, startupTimeout, requestedLogDir, port, security);
    }

    /**
     * Secures the client listener as {@code security} says (SASL/SCRAM, optionally TLS and ACLs): {@link
     * #bootstrapServers()} then needs {@link #clientConfig} or {@link #superUserConfig()} beside it.
     *
     * @param security the SASL/SCRAM users, and whether TLS and ACLs are on
     * @return a copy with a secured client listener
     */
    public EmbeddedKafkaBroker withSecurity(BrokerSecurity security) {
        return new EmbeddedKafkaBroker(
                overrides,
                startupTimeout,
                requestedLogDir,
                preferredPort,
                Objects.requireNonNull(security, "security"));
    }

    /**
     * The settings a client needs to connect as {@code user}: {@code bootstrap.servers} and, for a secured
     * broker, {@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config} and, over TLS,
     * the certificate to trust. For a plaintext broker, {@code bootstrap.servers} only.
     *
     * @param user the SCRAM user's name
     * @param password the user's password
     * @return a new map of client settings
     * @throws IllegalStateException if the broker is not running
     */
    public synchronized Map<String, Object> clientConfig(String user, String password) {
        running();
        SecuredListeners s = secured;
        if (s == null) {
            return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        }
        return s.clientConfig(user, password);
    }

    /**
     * {@link #clientConfig} for the super user {@value BrokerSecurity#SUPER_USER}, who may do anything.
     *
     * @return a new map of client settings for the super user
     * @throws IllegalStateException if the broker is not running
     */
    public synchronized Map<String, Object> superUserConfig() {
        BrokerSecurity b = security;
        return clientConfig(BrokerSecurity.SUPER_USER, b == null ? "" : b.superUserPassword());
    }

    @Override
    public synchronized EmbeddedKafkaBroker start() {
        if (closed) {
            throw new IllegalStateException("This broker was closed; create a new one");
        }
        if (running != null) {
            return this;
        }
        Path dir = baseDir;
        boolean firstStart = dir == null;
        if (dir == null) {
            dir = prepareDirectory();
            baseDir = dir;
            brokerPort = preferredPort != 0 && !FreePorts.inUse(preferredPort) ? preferredPort : FreePorts.pick();
            controllerPort = FreePorts.pick();
            BrokerSecurity b = security;
            if (b != null) {
                secured = new SecuredListeners(
                        brokerPort,
                        FreePorts.pick(),
                        controllerPort,
                        BrokerSecurity.SUPER_USER,
                        b.superUserPassword(),
                        b.acls(),
                        b.tls() ? TlsMaterial.generate(dir) : null);
            }
        }
        Properties props = brokerProperties(dir);
        KafkaConfig config = validated(props);
        if (firstStart) {
            format(dir, props);
        }
        launch(config, dir);
        return this;
    }

    private Path prepareDirectory() {
        try {
            if (requestedLogDir != null) {
                Files.createDirectories(requestedLogDir);
                return Files.createTempDirectory(requestedLogDir, "kafka-");
            }
            return Files.createTempDirectory("weir-kafka-");
        } catch (IOException | RuntimeException e) {
            Path where = requestedLogDir != null ? requestedLogDir : Path.of(System.getProperty("java.io.tmpdir"));
            throw new IllegalStateException("Cannot create the Kafka broker's log dir under " + where + ": " + e, e);
        }
    }

    private Properties brokerProperties(Path dir) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", "1");
        config.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("log.dirs", dir.resolve("data").toString());
        config.put("num.partitions", "1");
        config.put("default.replication.factor", "1");
        config.put("min.insync.replicas", "1");
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "5");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("transaction.state.log.num.partitions", "5");
        // Transactions open past their timeout are aborted within a second (Kafka's default scans every 10 s), so
        // tests of what a timed-out transaction costs see it as production would after a long batch.
        config.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        config.put("auto.create.topics.enable", "false");
        config.put("log.cleaner.backoff.ms", "500");
        config.put("num.network.threads", "2");
        config.put("num.io.threads", "4");
        // The broker gives up by itself at the deadline and shuts down cleanly; a broker still
        // STARTING when shutdown() is called would ignore it and leak its threads.
        config.put("server.max.startup.time.ms", String.valueOf(startupTimeout.toMillis()));
        SecuredListeners s = secured;
        if (s != null) {
            config.putAll(s.brokerConfig());
        }
        config.putAll(overrides);
        Properties props = new Properties();
        props.putAll(config);
        return props;
    }

    private static KafkaConfig validated(Properties props) {
        try {
            return KafkaConfig.fromProps(props, false);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Invalid config for the embedded Kafka broker: " + e.getMessage(), e);
        }
    }

    private void format(Path dir, Properties props) {
        Path configFile = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(configFile)) {
            props.store(out, "Weir embedded Kafka broker");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + configFile, e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String clusterId = Uuid.randomUuid().toString();
        int exit;
        try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exit = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", configFile.toString()}, print);
        }
        if (exit != 0) {
            throw new IllegalStateException("Formatting the Kafka log dir " + dir + " failed (exit " + exit + "): "
                    + output.toString(StandardCharsets.UTF_8));
        }
    }

    private void launch(KafkaConfig config, Path dir) {
        BrokerLogTail tail = BrokerLogTail.capture(LOG_TAIL_LINES);
        KafkaRaftServer starting = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            awaitReady(starting);
            SecuredListeners s = secured;
            BrokerSecurity b = security;
            if (s != null && b != null) {
                Map<String, String> users = new LinkedHashMap<>(b.users());
                users.put(BrokerSecurity.SUPER_USER, b.superUserPassword());
                s.createUsers(users);
            }
            running = new Running(starting, new TopicAdmin(adminConfig()));
            log.info("Kafka broker up at {} (data in {})", bootstrap(), dir);
        } catch (RuntimeException e) {
            String lastLines = tail.describe();
            tail.close();
            shutdownQuietly(starting);
            throw new IllegalStateException(e.getMessage() + lastLines, e.getCause());
        } finally {
            tail.close();
        }
    }

    /**
     * Runs the broker's startup, which returns once the broker is registered and unfenced, then
     * checks that it answers a client. The broker's own deadline (server.max.startup.time.ms) ends a
     * stuck startup; the grace covers its shutdown after that.
     */
    private void awaitReady(KafkaRaftServer starting) {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        CompletableFuture<Void> startup = new CompletableFuture<>();
        Thread starter = new Thread(
                () -> {
                    try {
                        starting.startup();
                        startup.complete(null);
                    } catch (Throwable t) {
                        startup.completeExceptionally(t);
                    }
                },
                "weir-kafka-broker-startup");
        starter.setDaemon(true);
        starter.start();
        try {
            startup.get(startupTimeout.plus(STARTUP_GRACE).toMillis(), TimeUnit.MILLISECONDS);
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            try (Admin client = Admin.create(adminConfig())) {
                client.describeCluster().nodes().get(left, TimeUnit.MILLISECONDS);
            }
        } catch (TimeoutException e) {
            throw notUpInTime(e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (hasTimeoutCause(cause)) {
                throw notUpInTime(cause);
            }
            throw new IllegalStateException("The Kafka broker at " + bootstrap() + " failed to start: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the Kafka broker at " + bootstrap(), e);
        }
    }

    private IllegalStateException notUpInTime(Throwable cause) {
        return new IllegalStateException(
                "The Kafka broker at " + bootstrap() + " did not come up within " + startupTimeout.toMillis() + " ms",
                cause);
    }

    private static boolean hasTimeoutCause(Throwable t) {
        for (@Nullable Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException || c instanceof org.apache.kafka.common.errors.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private String bootstrap() {
        return "127.0.0.1:" + brokerPort;
    }

    /** How the kit's own admin client connects: the super user's internal listener on a secured broker. */
    private Map<String, Object> adminConfig() {
        SecuredListeners s = secured;
        return s == null ? Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()) : s.internalAdminConfig();
    }

    @Override
    public synchronized String bootstrapServers() {
        running();
        return bootstrap();
    }

    @Override
    public synchronized void createTopic(String name, int partitions, Map<String, String> configs) {
        running().topics().create(name, partitions, configs);
    }

    private Running running() {
        Running r = running;
        if (r == null) {
            throw new IllegalStateException("The broker is not running; call start() first");
        }
        return r;
    }

    @Override
    public boolean supportsRestart() {
        return true;
    }

    @Override
    public synchronized void stop() {
        Running r = running;
        if (r == null) {
            return;
        }
        r.topics().close();
        shutdownQuietly(r.server());
        running = null;
        log.info("Kafka broker at {} stopped", bootstrap());
    }

    private static void shutdownQuietly(KafkaRaftServer s) {
        try {
            s.shutdown();
            s.awaitShutdown();
        } catch (RuntimeException e) {
            log.warn("Error while shutting down an embedded Kafka broker", e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        if (baseDir != null) {
            TempDirs.deleteRecursively(baseDir);
        }
    }

    /**
     * The directory holding this broker's config and data; empty before the first start.
     *
     * @return the directory, once the broker has started
     */
    public synchronized Optional<Path> logDir() {
        return Optional.ofNullable(baseDir);
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + (brokerPort == 0 ? "not started" : bootstrap()) + "]";
    }
}
