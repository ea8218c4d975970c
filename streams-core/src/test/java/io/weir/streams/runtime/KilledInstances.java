package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.awaitility.Awaitility.await;

/**
 * Two instances of an application in child JVMs, one of them killed ({@code destroyForcibly()}: no shutdown
 * hook, no final commit) and restarted on its state directory while the input keeps coming. The child's
 * {@code main} takes the given arguments followed by its state directory. Closing kills both.
 */
final class KilledInstances implements AutoCloseable {

    /** One input step; the test keeps its own model of what was sent. */
    interface Step {
        void send(KafkaProducer<String, String> producer, int i);
    }

    private static final Logger log = LoggerFactory.getLogger(KilledInstances.class);

    private final ChildInstance[] running = new ChildInstance[2];
    private final Class<?> main;
    private final Path[] dirs;
    private final String[] args;

    private KilledInstances(Class<?> main, Path[] dirs, String... args) {
        this.main = main;
        this.dirs = dirs;
        this.args = args;
    }

    /**
     * Starts two instances of {@code main} (application id {@code app}) and sends {@code steps} input steps,
     * killing and restarting one instance at random {@code kills} times, each after the group has committed
     * more input; returns the instances, still running, for the caller to check the output and close.
     */
    @SuppressWarnings("TooManyParameters") // the child's class, its arguments and the storm's shape
    static KilledInstances run(
            KafkaBroker broker, Class<?> main, String app, String[] args, Path[] dirs, int steps, int kills, Step step)
            throws Exception {
        KilledInstances instances = new KilledInstances(main, dirs, args);
        boolean started = false;
        try (GroupOffsets offsets = new GroupOffsets(broker);
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new StringSerializer(),
                        new StringSerializer())) {
            instances.launch(0);
            instances.launch(1);
            Random random = new Random(3);
            int segment = steps / (kills + 1);
            for (int i = 0; i < steps; i++) {
                step.send(producer, i);
                if (i % segment == segment - 1 && i < steps - 1) {
                    producer.flush();
                    long previous = offsets.committed(app);
                    await().atMost(Duration.ofMinutes(2)).until(() -> offsets.committed(app) > previous);
                    int victim = random.nextInt(2);
                    log.info("Kill: {} instance {} after {} input steps", app, victim, i + 1);
                    instances.restart(victim);
                }
            }
            producer.flush();
            started = true;
            return instances;
        } finally {
            if (!started) {
                instances.close();
            }
        }
    }

    private void launch(int n) throws IOException {
        String[] withDir = Arrays.copyOf(args, args.length + 1);
        withDir[args.length] = dirs[n].toString();
        running[n] = ChildInstance.launch(main, dirs[n], withDir);
    }

    private void restart(int n) throws IOException, InterruptedException {
        running[n].kill();
        launch(n);
    }

    @Override
    public void close() {
        for (ChildInstance instance : running) {
            if (instance != null) {
                instance.close();
            }
        }
    }
}
