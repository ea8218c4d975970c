package io.weir.benchmarks.failover;

import io.weir.benchmarks.tables.DriverRuns;
import io.weir.streams.test.kafka.KafkaBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

/**
 * What the failover benchmarks share: the workload's settings from their options (a count per key of
 * {@code --keys} keys over {@code --partitions} partitions under {@code --rate} records/s of steady
 * input, on each of {@code --engines}, {@code --runs} times), the applications they run on the broker, the
 * directories of their instances (state deleted on close, logs kept), and the waits on them.
 */
final class FailoverRig implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FailoverRig.class);
    private static final Duration SETTLE = Duration.ofMinutes(10);

    /** The options every failover benchmark takes. */
    static final List<String> OPTIONS = List.of(
            "--keys",
            "--rate",
            "--partitions",
            "--engines",
            "--bootstrap",
            "--broker-script",
            "--lag-limit",
            "--runs",
            "--logs");

    private final KafkaBroker broker;
    private final int keys;
    private final int rate;
    private final int partitions;
    private final long lagLimit;
    private final int runs;
    private final List<String> engines;
    private final Path work;
    /**
     * The instances' logs, kept after the run (small, unlike their state): in {@code --logs} if given (its
     * owner's to delete), else in a new temporary directory.
     */
    private final Path logs;

    /** Settings from {@code options}, {@code defaultKeys} keys unless {@code --keys} says otherwise. */
    FailoverRig(KafkaBroker broker, Map<String, String> options, int defaultKeys, String name) {
        this.broker = broker;
        this.keys = Integer.parseInt(options.getOrDefault("--keys", Integer.toString(defaultKeys)));
        this.rate = Integer.parseInt(options.getOrDefault("--rate", "3000"));
        this.partitions = Integer.parseInt(options.getOrDefault("--partitions", "6"));
        this.lagLimit = Long.parseLong(options.getOrDefault("--lag-limit", "5000"));
        this.runs = Integer.parseInt(options.getOrDefault("--runs", "1"));
        this.engines = Arrays.stream(
                        options.getOrDefault("--engines", "weir,kafka-streams").split(",", -1))
                .map(String::trim)
                .toList();
        this.work = DriverRuns.tempDir("weir-" + name + "-");
        String logsOption = options.get("--logs");
        this.logs = logsOption != null ? Path.of(logsOption) : DriverRuns.tempDir("weir-" + name + "-logs-");
    }

    String bootstrap() {
        return broker.bootstrapServers();
    }

    int keys() {
        return keys;
    }

    int rate() {
        return rate;
    }

    int partitions() {
        return partitions;
    }

    int runs() {
        return runs;
    }

    List<String> engines() {
        return engines;
    }

    /**
     * A new application on {@code engine}, named {@code <prefix>-<engine>-<millis>}: its input topic, preloaded
     * with one record per key, and its output topic, both of {@code --partitions} partitions.
     */
    App app(String prefix, String engine) {
        App app = new App(engine, prefix + "-" + engine + "-" + System.currentTimeMillis());
        broker.createTopic(app.input(), partitions, Map.of());
        broker.createTopic(app.output(), partitions, Map.of());
        SteadyInput.preload(broker.bootstrapServers(), app.input(), keys);
        return app;
    }

    /** One application under test: its topics, and its instances' state and logs. */
    final class App {

        private final String engine;
        private final String id;

        private App(String engine, String id) {
            this.engine = engine;
            this.id = id;
        }

        String engine() {
            return engine;
        }

        String input() {
            return id + "-in";
        }

        String output() {
            return id + "-out";
        }

        /** Starts instance {@code index}: {@code instance-<index>}, its state in a directory of its own. */
        InstanceProcess start(int index) {
            String name = "instance-" + index;
            return InstanceProcess.start(
                    engine,
                    broker.bootstrapServers(),
                    id,
                    work.resolve(id).resolve(name),
                    name,
                    input(),
                    output(),
                    logs.resolve(id));
        }

        /** Every live instance runs, together they run every task, and every output partition has output. */
        boolean settled(List<InstanceProcess> instances, OutputTimeline timeline) {
            return ready(instances) && timeline.allFlowing(Duration.ofSeconds(1));
        }

        /**
         * Every live instance runs its share of the tasks (at least {@code partitions / instances}), together
         * they run every task, and the standby copies are caught up.
         */
        boolean ready(List<InstanceProcess> instances) {
            int active = 0;
            long lag = 0;
            for (InstanceProcess instance : instances) {
                InstanceProcess.Status status = instance.status();
                if (!status.running() || status.active() < partitions / instances.size()) {
                    return false;
                }
                active += status.active();
                lag += Math.max(0, status.lag());
            }
            return active == partitions && lag <= lagLimit;
        }

        /**
         * Waits until the instances are settled and have stayed so for five seconds.
         *
         * @return when they last became settled ({@link System#nanoTime()})
         */
        long awaitCalm(String what, List<InstanceProcess> instances, OutputTimeline timeline)
                throws InterruptedException, TimeoutException {
            long[] calmSince = {-1};
            await(what + " (calm for 5 s)", () -> {
                if (!settled(instances, timeline)) {
                    calmSince[0] = -1;
                    return false;
                }
                if (calmSince[0] < 0) {
                    calmSince[0] = System.nanoTime();
                }
                return System.nanoTime() - calmSince[0] > Duration.ofSeconds(5).toNanos();
            });
            return calmSince[0];
        }
    }

    /** Polls {@code condition} every 100 ms until it holds, for up to ten minutes. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(what + ": not within " + SETTLE);
            }
            Thread.sleep(100);
        }
    }

    static <T> double median(List<T> items, ToDoubleFunction<T> value) {
        List<Double> values = new ArrayList<>();
        items.forEach(item -> values.add(value.applyAsDouble(item)));
        return DriverRuns.median(values);
    }

    @Override
    public void close() {
        DriverRuns.delete(work);
        try (var entries = Files.list(logs)) {
            if (entries.findAny().isEmpty()) {
                // No instance ran (a report's test): leave no empty directory behind.
                Files.delete(logs);
                return;
            }
        } catch (IOException e) {
            log.warn("Could not read {}", logs, e);
        }
        log.info("The instances' logs are in {}", logs);
    }
}
