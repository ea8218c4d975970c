package io.weir.streams.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.BrokerSecurity;
import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Weir against a broker that enforces security: SASL/SCRAM-SHA-512 over TLS, and ACLs (Kafka's
 * StandardAuthorizer, deny by default). One rule per test; the last checks that no password reached a log
 * line or an error message of any of them.
 */
class SecurityIntegrationTest {

    private static final String APP = "sec-app";
    private static final String INPUT = "orders";
    private static final String OUTPUT = "orders-per-customer";
    private static final String APP_PASSWORD = "app-pw-7c1e9d42b5";
    private static final String NO_READ_PASSWORD = "noread-pw-3f8a6b21c0";
    private static final String NO_TXN_PASSWORD = "notxn-pw-91d4e7a3f6";
    private static final String NO_GROUP_PASSWORD = "nogroup-pw-0a6d3c9e72";
    private static final String NO_WRITE_PASSWORD = "nowrite-pw-e84b1f5d3a";
    private static final String NO_INTERNAL_READ_PASSWORD = "nointernal-pw-6e0b2d8f17";
    private static final String WRONG_PASSWORD = "wrong-pw-5b2c8e1f94";
    private static final List<String> SECRETS = List.of(
            APP_PASSWORD,
            NO_READ_PASSWORD,
            NO_TXN_PASSWORD,
            NO_GROUP_PASSWORD,
            NO_WRITE_PASSWORD,
            NO_INTERNAL_READ_PASSWORD,
            WRONG_PASSWORD);

    private static EmbeddedKafkaBroker broker;
    private static ListAppender<ILoggingEvent> logs;
    private static final Map<String, Level> savedLevels = new HashMap<>();

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        // Every Weir and Kafka line at INFO and above is captured, so the secret check sees the clients'
        // configuration dumps too.
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        for (String name : List.of("kafka", "org.apache.kafka", "io.weir")) {
            Logger l = context.getLogger(name);
            savedLevels.put(name, l.getLevel());
            l.setLevel(Level.INFO);
        }
        logs = new ListAppender<>();
        logs.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(logs);

        broker = EmbeddedKafkaBroker.create()
                .withSecurity(BrokerSecurity.scram()
                        .withTls()
                        .withAcls()
                        .withUser("app", APP_PASSWORD)
                        .withUser("no-read", NO_READ_PASSWORD)
                        .withUser("no-txn", NO_TXN_PASSWORD)
                        .withUser("no-group", NO_GROUP_PASSWORD)
                        .withUser("no-write", NO_WRITE_PASSWORD)
                        .withUser("no-internal-read", NO_INTERNAL_READ_PASSWORD))
                .start();
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        try (Admin admin = Admin.create(broker.superUserConfig())) {
            List<AclBinding> acls = new ArrayList<>(leastAcls("app", Missing.NOTHING));
            acls.addAll(leastAcls("no-read", Missing.INPUT_READ));
            acls.addAll(leastAcls("no-txn", Missing.TRANSACTIONAL_IDS));
            acls.addAll(leastAcls("no-group", Missing.GROUP));
            acls.addAll(leastAcls("no-write", Missing.OUTPUT_WRITE));
            acls.addAll(leastAcls("no-internal-read", Missing.INTERNAL_READ));
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopBroker() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(logs);
        savedLevels.forEach((name, level) -> context.getLogger(name).setLevel(level));
        broker.close();
    }

    /**
     * The ACLs docs/guides/security.md lists for an application, and no more: CREATE, READ, WRITE,
     * DESCRIBE_CONFIGS and DELETE on topics prefixed by the application id and the separator; READ on its
     * group, literally (not a prefix: another team's group 'sec-app-audit' or 'sec-appX' is not covered);
     * WRITE on transactional ids with the topics' prefix (exactly-once); READ on its input; WRITE and
     * DESCRIBE_CONFIGS on its output. No ALL anywhere; DESCRIBE is implied by READ, WRITE and DELETE.
     */
    private static List<AclBinding> leastAcls(String user, Missing missing) {
        List<AclBinding> acls = new ArrayList<>();
        for (AclOperation op : List.of(
                AclOperation.CREATE,
                AclOperation.READ,
                AclOperation.WRITE,
                AclOperation.DESCRIBE_CONFIGS,
                AclOperation.DELETE)) {
            if (!(missing == Missing.INTERNAL_READ && op == AclOperation.READ)) {
                acls.add(allow(user, ResourceType.TOPIC, APP + "-", PatternType.PREFIXED, op));
            }
        }
        if (missing != Missing.GROUP) {
            acls.add(allow(user, ResourceType.GROUP, APP, PatternType.LITERAL, AclOperation.READ));
        }
        if (missing != Missing.TRANSACTIONAL_IDS) {
            acls.add(allow(user, ResourceType.TRANSACTIONAL_ID, APP + "-", PatternType.PREFIXED, AclOperation.WRITE));
        }
        if (missing != Missing.INPUT_READ) {
            acls.add(allow(user, ResourceType.TOPIC, INPUT, PatternType.LITERAL, AclOperation.READ));
        }
        if (missing != Missing.OUTPUT_WRITE) {
            acls.add(allow(user, ResourceType.TOPIC, OUTPUT, PatternType.LITERAL, AclOperation.WRITE));
        }
        acls.add(allow(user, ResourceType.TOPIC, OUTPUT, PatternType.LITERAL, AclOperation.DESCRIBE_CONFIGS));
        return acls;
    }

    /** The one ACL a test user lacks. */
    private enum Missing {
        NOTHING,
        INPUT_READ,
        TRANSACTIONAL_IDS,
        GROUP,
        OUTPUT_WRITE,
        INTERNAL_READ
    }

    private static AclBinding allow(String user, ResourceType type, String name, PatternType pattern, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW));
    }

    /** Orders keyed by order id, re-keyed by customer (a repartition topic) and counted (a changelog). */
    private static Topology ordersPerCustomer() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((order, customer) -> customer, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("per-customer"))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    private static WeirStreams instance(String user, String password, Path dir) {
        Map<String, Object> config = new HashMap<>(broker.clientConfig(user, password));
        config.put(StreamsConfig.APPLICATION_ID, APP);
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        config.put("consumer.session.timeout.ms", 10_000);
        return new WeirStreams(ordersPerCustomer(), config);
    }

    /** Appends {@code count} orders; returns the counts per customer of every order in the topic so far. */
    private static synchronized Map<String, Long> produceOrders(int count) {
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(broker.superUserConfig(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                String customer = "c" + (produced + i) % 13;
                producer.send(new ProducerRecord<>(INPUT, "order-" + (produced + i), customer));
                allOrders.merge(customer, 1L, Long::sum);
            }
        }
        produced += count;
        return new TreeMap<>(allOrders);
    }

    private static int produced;
    private static final Map<String, Long> allOrders = new TreeMap<>();

    /** Starts an instance as {@code user}, which must fail with a message containing {@code expected}. */
    private static void assertFailsNaming(String user, String password, Path dir, String expected) {
        try (WeirStreams app = instance(user, password, dir)) {
            app.start();
            String message = failure(app);
            assertTrue(message.contains(expected), message);
        }
    }

    private static String failure(WeirStreams app) {
        await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.ERROR);
        return app.error().orElseThrow().getMessage();
    }

    @Test
    void anApplicationWithTheLeastAclsRunsExactlyOnce(@TempDir Path dir) {
        Map<String, Long> expected = produceOrders(200);
        try (WeirStreams app = instance("app", APP_PASSWORD, dir)) {
            app.start();
            Map<String, Object> config = new HashMap<>(broker.superUserConfig());
            config.put(ConsumerConfig.GROUP_ID_CONFIG, "sec-reader");
            config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            Map<String, Long> latest = new TreeMap<>();
            try (KafkaConsumer<String, Long> consumer =
                    new KafkaConsumer<>(config, new StringDeserializer(), new LongDeserializer())) {
                consumer.subscribe(List.of(OUTPUT));
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    assertFalse(app.state() == WeirStreams.State.ERROR, () -> "failed: " + app.error());
                    for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                        latest.put(r.key(), r.value());
                    }
                    return latest.equals(expected);
                });
            }
            assertEquals(WeirStreams.State.RUNNING, app.state());
        }
    }

    @Test
    void withoutReadOnItsInputItFailsAtStartNamingThePermission(@TempDir Path dir) {
        assertFailsNaming("no-read", NO_READ_PASSWORD, dir, "READ on its input topic 'orders'");
    }

    @Test
    void withoutItsTransactionalIdsItFailsNamingThem(@TempDir Path dir) {
        // Even a handler that replaces failed threads: a replacement would meet the same refusal.
        try (WeirStreams app = instance("no-txn", NO_TXN_PASSWORD, dir)) {
            app.setUncaughtExceptionHandler(e -> StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD);
            app.start();
            String message = failure(app);
            assertTrue(message.contains("WRITE on transactional ids with the prefix 'sec-app-'"), message);
        }
    }

    @Test
    void withoutReadOnItsGroupItFailsNamingIt(@TempDir Path dir) {
        assertFailsNaming("no-group", NO_GROUP_PASSWORD, dir, "READ on the consumer group 'sec-app'");
    }

    @Test
    void withoutWriteOnItsOutputItFailsNamingIt(@TempDir Path dir) {
        produceOrders(10);
        assertFailsNaming(
                "no-write",
                NO_WRITE_PASSWORD,
                dir,
                "WRITE and DESCRIBE_CONFIGS on its output topic 'orders-per-customer'");
    }

    @Test
    void withoutReadOnItsInternalTopicsItFailsNamingTheOperationsOnThePrefix(@TempDir Path dir) {
        produceOrders(10);
        assertFailsNaming(
                "no-internal-read",
                NO_INTERNAL_READ_PASSWORD,
                dir,
                "CREATE, READ, WRITE, DESCRIBE_CONFIGS and DELETE on topics with the prefix 'sec-app-'");
    }

    @Test
    void theLeastAclsOpenNoOtherTeamsGroupOrTopics() throws Exception {
        // The group ACL is literal and the topic prefix ends with the separator: with a group prefix 'sec-app'
        // or a topic prefix without the '-', another team's 'sec-app-audit' or 'sec-appX' would be open to it.
        try (Admin admin = Admin.create(broker.clientConfig("app", APP_PASSWORD))) {
            admin.listConsumerGroupOffsets(APP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            for (String group : List.of(APP + "-audit", APP + "X")) {
                ExecutionException e = assertThrows(
                        ExecutionException.class,
                        () -> admin.listConsumerGroupOffsets(group)
                                .partitionsToOffsetAndMetadata()
                                .get(30, TimeUnit.SECONDS));
                assertInstanceOf(GroupAuthorizationException.class, e.getCause(), group);
            }
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> admin.createTopics(List.of(new NewTopic(APP + "X-changelog", 1, (short) 1)))
                            .all()
                            .get(30, TimeUnit.SECONDS));
            assertInstanceOf(TopicAuthorizationException.class, e.getCause());
        }
    }

    @Test
    void wrongCredentialsFailFastAndClearly(@TempDir Path dir) {
        try (WeirStreams app = instance("app", WRONG_PASSWORD, dir)) {
            long start = System.nanoTime();
            app.start();
            String message = failure(app);
            assertTrue(message.contains("did not accept the credentials of application sec-app"), message);
            assertTrue(message.contains("sasl.mechanism=SCRAM-SHA-512"), message);
            assertTrue(
                    System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15),
                    "a refused login is not retried: " + message);
        }
    }

    @Test
    void noPasswordAppearsInAnyLogLineOrErrorMessage(@TempDir Path dir) {
        // Provoke the paths that print configuration and errors at least once, whatever the test order.
        try (WeirStreams app = instance("app", WRONG_PASSWORD, dir.resolve("wrong"))) {
            app.start();
            String message = failure(app);
            SECRETS.forEach(s -> assertFalse(message.contains(s), "error message holds a password"));
        }
        String superJaas = String.valueOf(broker.superUserConfig().get("sasl.jaas.config"));
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("password=\"([^\"]+)\"").matcher(superJaas);
        assertTrue(m.find());
        List<String> secrets = new ArrayList<>(SECRETS);
        secrets.add(m.group(1));
        List<String> lines = new ArrayList<>();
        List<ILoggingEvent> events;
        synchronized (logs) {
            // AppenderBase appends under the appender's own lock.
            events = List.copyOf(logs.list);
        }
        for (ILoggingEvent event : events) {
            lines.add(event.getFormattedMessage());
            for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                lines.add(t.getClassName() + ": " + t.getMessage());
            }
        }
        assertTrue(lines.size() > 100, "the logs were captured: " + lines.size() + " lines");
        assertTrue(lines.stream().anyMatch(l -> l.contains("sasl.jaas.config")), "the client configs were logged");
        for (String line : lines) {
            for (String secret : secrets) {
                assertFalse(line != null && line.contains(secret), () -> "a log line holds a password: " + line);
            }
        }
    }
}
