package io.weir.benchmarks.runtime;

import io.weir.benchmarks.nexmark.Event;
import io.weir.benchmarks.nexmark.NexmarkInstance;
import io.weir.benchmarks.nexmark.NexmarkLoader;
import io.weir.benchmarks.nexmark.NexmarkQuery;
import io.weir.benchmarks.nexmark.NexmarkTopics;
import io.weir.benchmarks.nexmark.Results;
import io.weir.benchmarks.tables.DriverRuns;
import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One timed run of a Nexmark query: a fresh application of {@code instances} {@link NexmarkInstance}s, each
 * in a child JVM, on the pre-loaded input, its output read with {@code read_committed} until it holds the
 * reference's results. Then the instances close, the output is read to its end and checked again (nothing
 * extra, nothing duplicated), and their state directories are measured. Owns the processes it starts.
 */
final class NexmarkRun {

    /**
     * A run's input: topics holding the events, and the closing events still to append to them once the
     * application has consumed and committed all of it (none when the topics hold them already).
     */
    record Input(NexmarkTopics topics, List<Event> closing) {}

    /** How often the run asks the broker whether the application has caught up, before the closing events. */
    private static final long CAUGHT_UP_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The heap of every instance, the same for both engines. */
    private static final String HEAP = "-Xmx2g";

    private static final Pattern STARTING = Pattern.compile("^STARTING ");
    private static final Pattern STATUS =
            Pattern.compile("^STATUS running=(\\w+) failed=(\\w+) cpuNanos=(\\d+) peakHeapAfterGc=(\\d+)");
    /** Linux's {@code USER_HZ}: the unit of a process's CPU times in {@code /proc/<pid>/stat}. */
    private static final long NANOS_PER_TICK = 10_000_000;

    private final KafkaBroker broker;
    private final NexmarkQuery<?, ?> query;
    private final NexmarkEngine engine;
    private final int instances;
    private final NexmarkTopics topics;
    private final List<Event> closing;
    private final Duration outOfOrder;
    private final int partitions;
    private final String app;
    private final Path root;

    NexmarkRun(
            KafkaBroker broker,
            NexmarkQuery<?, ?> query,
            NexmarkEngine engine,
            int instances,
            Input input,
            Duration outOfOrder,
            int partitions,
            String app,
            Path root) {
        this.broker = broker;
        this.query = query;
        this.engine = engine;
        this.instances = instances;
        this.topics = input.topics();
        this.closing = input.closing();
        this.outOfOrder = outOfOrder;
        this.partitions = partitions;
        this.app = app;
        this.root = root;
    }

    NexmarkBenchmark.Row measure(long events, Results expected, Duration timeout) throws Exception {
        String output = app + "-out";
        broker.createTopic(output, partitions);
        List<Instance> started = new ArrayList<>();
        Results actual = new Results(query.shape());
        try (Reader reader = new Reader(output, actual, expected);
                GroupProgress progress = new GroupProgress(broker.bootstrapServers())) {
            for (int i = 0; i < instances; i++) {
                started.add(new Instance(i, output));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Instance instance : started) {
                instance.awaitStarting(deadline);
            }
            long start = started.stream().mapToLong(i -> i.startingNanos).min().orElseThrow();
            long done = 0;
            long cpuAtDone = 0;
            boolean closed = closing.isEmpty();
            long nextCheck = System.nanoTime();
            while (done == 0) {
                reader.checkHealthy();
                for (Instance instance : started) {
                    instance.checkHealthy();
                }
                if (!closed && System.nanoTime() >= nextCheck) {
                    nextCheck = System.nanoTime() + CAUGHT_UP_CHECK_NANOS;
                    closed = appendClosingIfCaughtUp(progress);
                }
                done = reader.doneNanos();
                if (done != 0) {
                    for (Instance instance : started) {
                        cpuAtDone += instance.cpuNanos() - instance.cpuAtStarting;
                    }
                } else if (System.nanoTime() > deadline) {
                    throw new TimeoutException(query.name() + " on " + engine.id() + " did not come to its "
                            + expected.size() + " results within " + timeout + ": " + actual.size() + " so far");
                } else {
                    Thread.sleep(10);
                }
            }
            long peakHeap = 0;
            for (Instance instance : started) {
                peakHeap = Math.max(peakHeap, instance.peakHeapAfterGc);
                instance.close();
            }
            reader.readTo(progress.committedEnd(output, partitions), deadline);
            reader.check(query.name() + " on " + engine.id() + " x" + instances);
            return new NexmarkBenchmark.Row(
                    query.name(),
                    engine,
                    instances,
                    events,
                    (done - start) / 1e9,
                    cpuAtDone / 1e9,
                    started.stream().mapToLong(Instance::stateBytes).sum(),
                    peakHeap,
                    actual.records());
        } finally {
            for (Instance instance : started) {
                instance.kill();
            }
        }
    }

    /**
     * Appends the closing events once the application's group has consumed and committed every record of
     * its input and of its repartition topics. Earlier, an engine that tracks time as the largest it has
     * seen (Kafka Streams) would take the closing events of one partition, passed on through a
     * repartition topic, as the time of records other partitions still have to pass on, and drop those as
     * late.
     *
     * @return whether it appended them
     */
    private boolean appendClosingIfCaughtUp(GroupProgress progress) {
        if (!progress.caughtUp(app, Set.copyOf(topics.all()))) {
            return false;
        }
        NexmarkLoader.append(broker.bootstrapServers(), topics, closing.iterator());
        return true;
    }

    /** The output, read with {@code read_committed} into the run's results. */
    private final class Reader implements AutoCloseable {
        private final Results actual;
        private final Results expected;
        private final TopicFollower<byte[], byte[]> follower;
        private volatile long doneNanos;

        Reader(String output, Results actual, Results expected) {
            this.actual = actual;
            this.expected = expected;
            this.follower = new TopicFollower<>(
                    broker.bootstrapServers(),
                    output,
                    partitions,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    100_000,
                    (polled, now) -> {
                        synchronized (actual) {
                            for (ConsumerRecord<byte[], byte[]> r : polled) {
                                add(query, r);
                            }
                            if (doneNanos == 0 && actual.reached(expected)) {
                                doneNanos = now;
                            }
                        }
                    });
        }

        private <K, V> void add(NexmarkQuery<K, V> q, ConsumerRecord<byte[], byte[]> r) {
            Deserializer<K> keys = q.keySerde().deserializer();
            Deserializer<V> values = q.valueSerde().deserializer();
            actual.add(keys.deserialize(r.topic(), r.key()), values.deserialize(r.topic(), r.value()));
        }

        long doneNanos() {
            return doneNanos;
        }

        void checkHealthy() {
            follower.checkHealthy();
        }

        void readTo(Map<TopicPartition, Long> ends, long deadline) throws TimeoutException, InterruptedException {
            while (!follower.reached(ends)) {
                follower.checkHealthy();
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("The output of " + app + " was not read to its end " + ends);
                }
                Thread.sleep(10);
            }
        }

        void check(String what) {
            synchronized (actual) {
                actual.check(expected, what);
            }
        }

        @Override
        public void close() {
            follower.close();
        }
    }

    /** One instance's JVM: started at once, its status lines read on a thread of its own. */
    private final class Instance {
        private final Process process;
        private final Path stateDir;
        private final Path log;
        private volatile long startingNanos;
        private volatile long cpuAtStarting;
        private volatile boolean failed;
        private volatile long peakHeapAfterGc;

        Instance(int index, String output) throws IOException {
            stateDir = root.resolve(app + "-" + index);
            log = root.resolve(app + "-" + index + ".log");
            List<String> command = List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    HEAP,
                    "-cp",
                    System.getProperty("java.class.path"),
                    NexmarkInstance.class.getName(),
                    engine.id(),
                    query.name(),
                    broker.bootstrapServers(),
                    app,
                    stateDir.toString(),
                    topics.persons(),
                    topics.auctions(),
                    topics.bids(),
                    topics.sideInput(),
                    output,
                    Long.toString(outOfOrder.toMillis()),
                    "100");
            process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            Thread reader = new Thread(this::read, app + "-" + index + "-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (STARTING.matcher(line).find()) {
                        cpuAtStarting = cpuNanos();
                        startingNanos = System.nanoTime();
                        continue;
                    }
                    Matcher m = STATUS.matcher(line);
                    if (m.find()) {
                        failed = Boolean.parseBoolean(m.group(2));
                        peakHeapAfterGc = Long.parseLong(m.group(4));
                    }
                }
            } catch (IOException e) {
                // The process ended: its output is closed.
            }
        }

        void awaitStarting(long deadline) throws TimeoutException, InterruptedException {
            while (startingNanos == 0) {
                checkHealthy();
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("Instance " + stateDir.getFileName() + " did not start; see " + log);
                }
                Thread.sleep(10);
            }
        }

        void checkHealthy() {
            if (failed || !process.isAlive()) {
                throw new IllegalStateException(engine.id() + " instance " + stateDir.getFileName()
                        + (failed ? " failed" : " exited") + "; its log: " + tail());
            }
        }

        private String tail() {
            try {
                List<String> lines = Files.readAllLines(log);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                return log + " (unreadable: " + e + ")";
            }
        }

        /** The process's user and system CPU time so far, from {@code /proc/<pid>/stat}. */
        long cpuNanos() {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
                // Fields after the command name, which is in parentheses and may hold spaces.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
                return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the CPU time of instance " + process.pid(), e);
            }
        }

        /** The bytes of its state directory; none when it kept no state (a stateless query in Kafka Streams). */
        long stateBytes() {
            return Files.isDirectory(stateDir) ? DriverRuns.size(stateDir) : 0;
        }

        /** Closes the instance cleanly (its standard input ends) and waits for it. */
        void close() throws IOException, InterruptedException, TimeoutException {
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new TimeoutException("Instance " + stateDir.getFileName() + " did not close within 60 s");
            }
        }

        void kill() {
            process.destroyForcibly();
        }
    }
}
