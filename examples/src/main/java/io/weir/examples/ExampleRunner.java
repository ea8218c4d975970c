package io.weir.examples;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Runs an {@link Example} on Kafka: the broker given by {@code --bootstrap-servers}, or else an Apache Kafka
 * broker started in this process. Creates the example's missing topics, starts it as a Weir application,
 * writes generated input at {@code --rate} records/s, prints its output as it is committed
 * ({@code read_committed}) and a status line every few seconds, and stops after {@code --duration} or on
 * Ctrl-C. Everything it created on disk (state, the embedded broker's log) is deleted at the end; topics
 * on an external cluster stay, and a later run continues where this one stopped (same application id).
 *
 * <p>Why one class: it is one run's script, start to Ctrl-C, over the run's broker, application,
 * producer and output reader; what each example differs in comes from its {@link Example}.
 */
final class ExampleRunner {

    static final Set<String> OPTIONS =
            Set.of("bootstrap-servers", "duration", "rate", "partitions", "broker-port", "seed");

    static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    static final int DEFAULT_RATE = 500;
    static final int DEFAULT_PARTITIONS = 3;
    static final int DEFAULT_BROKER_PORT = 9092;
    private static final Duration REACH_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STATUS_EVERY = Duration.ofSeconds(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** Output lines shown per topic between two status lines; the rest are counted. */
    private static final int LINES_PER_STATUS = 10;

    private final Example example;
    private final Options options;
    private final PrintStream out;
    private volatile boolean stopRequested;

    ExampleRunner(Example example, Options options, PrintStream out) {
        this.example = example;
        this.options = options;
        this.out = out;
    }

    int run() {
        Duration duration = options.duration("duration", DEFAULT_DURATION);
        if (duration.isZero() || duration.isNegative()) {
            throw new Options.UsageException(
                    "Option --duration: must be positive, was " + options.required("duration"));
        }
        int rate = (int) options.longValue("rate", DEFAULT_RATE, 1, 100_000);
        int partitions = (int) options.longValue("partitions", DEFAULT_PARTITIONS, 1, 1_000);
        int brokerPort = (int) options.longValue("broker-port", DEFAULT_BROKER_PORT, 1, 65_535);
        long seed = options.longValue("seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
        if (options.has("bootstrap-servers") && options.has("broker-port")) {
            throw new Options.UsageException(
                    "Option --broker-port is for the embedded broker; it does not go with --bootstrap-servers");
        }

        // Ctrl-C: the hook asks the run to stop and holds the JVM until it has cleaned up.
        CountDownLatch finished = new CountDownLatch(1);
        Thread onCtrlC = new Thread(
                () -> {
                    stopRequested = true;
                    try {
                        finished.await(START_TIMEOUT.plus(STOP_TIMEOUT).toSeconds() + 10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "weir-example-stop");
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        try {
            Path stateDir = createStateDir();
            try (KafkaBroker broker = ExampleBroker.start(options, brokerPort, out)) {
                createTopics(broker.bootstrapServers(), partitions);
                return runApp(broker.bootstrapServers(), stateDir, duration, rate, seed);
            } finally {
                TempDirs.deleteRecursively(stateDir);
            }
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onCtrlC);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is exiting (Ctrl-C): the hook is running and has just been released.
            }
        }
    }

    /** How the example prints a committed record of {@code topic}, one of the output topics it names. */
    private Function<ConsumerRecord<byte[], byte[]>, String> printer(String topic) {
        return Objects.requireNonNull(example.printer().get(topic), "the example prints every output topic it reads");
    }

    private void createTopics(String bootstrap, int partitions) {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) REACH_TIMEOUT.toMillis(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) REACH_TIMEOUT.toMillis()))) {
            Set<String> existing = admin.listTopics().names().get(REACH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = new ArrayList<>();
            example.topics().forEach((name, config) -> {
                if (!existing.contains(name)) {
                    missing.add(new NewTopic(name, Optional.of(partitions), Optional.empty()).configs(config));
                }
            });
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(REACH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                out.println("Created topics "
                        + missing.stream().map(NewTopic::name).sorted().toList() + " with " + partitions
                        + " partitions");
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Cannot create the topics of " + example.name() + " on " + bootstrap + ": " + rootMessage(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics", e);
        }
    }

    private int runApp(String bootstrap, Path stateDir, Duration duration, int rate, long seed) {
        Map<String, Object> config = Map.of(
                StreamsConfig.APPLICATION_ID,
                "weir-example-" + example.name(),
                StreamsConfig.BOOTSTRAP_SERVERS,
                bootstrap,
                StreamsConfig.STATE_DIR,
                stateDir.toString());
        AtomicLong sendFailures = new AtomicLong();
        try (ExampleResources resources = new ExampleResources();
                KafkaConsumer<byte[], byte[]> output = outputReader(bootstrap);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                                ProducerConfig.LINGER_MS_CONFIG, 5,
                                ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) REACH_TIMEOUT.toMillis(),
                                // Bounds flush() and close() when the cluster goes away, well inside Ctrl-C's wait.
                                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REACH_TIMEOUT.toMillis(),
                                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) (2 * REACH_TIMEOUT.toMillis())),
                        new ByteArraySerializer(),
                        new ByteArraySerializer());
                WeirStreams app = new WeirStreams(example.topology().apply(resources), config)) {
            if (!start(app)) {
                out.println("Interrupted before " + example.name() + " was running; stopping");
                return 130;
            }
            out.printf(
                    "Running %s (exactly-once) for %d s, writing %d input records/s; Ctrl-C stops it%n",
                    example.name(), duration.toSeconds(), rate);
            Status status = new Status(example, out);
            InputGenerator generator = example.generator().create(seed, rate, duration);
            Map<String, Integer> shown = new HashMap<>();
            long start = System.currentTimeMillis();
            long deadline = start + duration.toMillis();
            long lastWrite = start;
            long nextStatus = start + STATUS_EVERY.toMillis();
            double owed = 0;
            long written = 0;
            while (!stopRequested && System.currentTimeMillis() < deadline) {
                long now = System.currentTimeMillis();
                owed += rate * (now - lastWrite) / 1000.0;
                lastWrite = now;
                int due = (int) owed;
                owed -= due;
                for (ProducerRecord<byte[], byte[]> record : generator.next(now, due)) {
                    // The callback counts failures; the future adds nothing.
                    @SuppressWarnings("FutureReturnValueIgnored")
                    var unused = producer.send(record, (metadata, error) -> {
                        if (error != null) {
                            sendFailures.incrementAndGet();
                        }
                    });
                    written++;
                }
                for (ConsumerRecord<byte[], byte[]> record : output.poll(Duration.ofMillis(100))) {
                    status.output(record.topic());
                    if (shown.merge(record.topic(), 1, Integer::sum) <= LINES_PER_STATUS) {
                        out.println("  " + printer(record.topic()).apply(record));
                    }
                }
                if (app.state() == WeirStreams.State.ERROR) {
                    throw new IllegalStateException(
                            example.name() + " failed: " + app.error().orElse(null),
                            app.error().orElse(null));
                }
                if (sendFailures.get() > 0) {
                    throw new IllegalStateException(
                            "Writing input to Kafka failed for " + sendFailures.get() + " records");
                }
                if (System.currentTimeMillis() >= nextStatus) {
                    nextStatus += STATUS_EVERY.toMillis();
                    status.print(System.currentTimeMillis() - start, app.metrics(), hidden(shown));
                    shown.clear();
                }
            }
            producer.flush();
            if (nextStatus - System.currentTimeMillis() < STATUS_EVERY.toMillis() - 1_000) {
                status.print(System.currentTimeMillis() - start, app.metrics(), hidden(shown));
            }
            out.printf(
                    "%s after %d s: wrote %,d input records; stopping and deleting the state directory%s%n",
                    stopRequested ? "Interrupted" : "Done",
                    (System.currentTimeMillis() - start) / 1000,
                    written,
                    options.has("bootstrap-servers") ? " (the topics stay on the cluster)" : " and the broker's data");
            if (!app.close(STOP_TIMEOUT)) {
                out.println("The application did not stop within " + STOP_TIMEOUT.toSeconds() + " s");
                return 1;
            }
            return 0;
        }
    }

    private static Map<String, Integer> hidden(Map<String, Integer> shown) {
        Map<String, Integer> hidden = new HashMap<>();
        shown.forEach((topic, n) -> {
            if (n > LINES_PER_STATUS) {
                hidden.put(topic, n - LINES_PER_STATUS);
            }
        });
        return hidden;
    }

    /** Starts the application and waits until it runs (true), or Ctrl-C (false); or fails with its error. */
    private boolean start(WeirStreams app) {
        CountDownLatch settled = new CountDownLatch(1);
        app.setStateListener((next, old) -> {
            if (next == WeirStreams.State.RUNNING || next == WeirStreams.State.ERROR) {
                settled.countDown();
            }
        });
        app.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try {
            while (!settled.await(200, TimeUnit.MILLISECONDS)) {
                if (stopRequested) {
                    return false;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(example.name() + " did not reach RUNNING within "
                            + START_TIMEOUT.toSeconds() + " s (state " + app.state() + ")");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting " + example.name(), e);
        }
        if (app.state() == WeirStreams.State.ERROR) {
            throw new IllegalStateException(
                    example.name() + " could not start: " + app.error().orElse(null),
                    app.error().orElse(null));
        }
        return true;
    }

    /** A read_committed reader of the printed topics, positioned at their ends: it shows this run's output. */
    private KafkaConsumer<byte[], byte[]> outputReader(String bootstrap) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        (int) REACH_TIMEOUT.toMillis()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : example.printedTopics()) {
                partitions.addAll(partitionsOf(consumer, topic));
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** The partitions of a topic just created: the broker's metadata may take a moment to list them. */
    private static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        long deadline = System.nanoTime() + REACH_TIMEOUT.toNanos();
        while (true) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream()
                        .map(p -> new TopicPartition(topic, p.partition()))
                        .toList();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Topic " + topic + " has no partitions after " + REACH_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while looking up " + topic, e);
            }
        }
    }

    private Path createStateDir() {
        try {
            return Files.createTempDirectory("weir-" + example.name() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create a state directory under " + System.getProperty("java.io.tmpdir"), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
