package io.weir.benchmarks.failover;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Input at a steady rate: every 10 ms, {@code rate / 100} records with keys drawn at random among
 * {@code keys}, so that every partition gets records all the time. Owns its producer and thread.
 */
final class SteadyInput implements AutoCloseable {

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    SteadyInput(String bootstrap, String topic, int keys, int rate) {
        thread = new Thread(() -> produce(bootstrap, topic, keys, rate), "failover-steady-input");
        thread.setDaemon(true);
        thread.start();
    }

    /** Writes one record per key, {@code k0} to {@code k<keys-1>}, and waits until all are written. */
    static void preload(String bootstrap, String topic, int keys) {
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = producer(bootstrap)) {
            for (int k = 0; k < keys; k++) {
                var unused = producer.send(new ProducerRecord<>(topic, "k" + k, "x"), (m, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
            }
        }
        if (failed.get() != null) {
            throw new IllegalStateException("Preloading " + topic + " failed", failed.get());
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024),
                new StringSerializer(),
                new StringSerializer());
    }

    private void produce(String bootstrap, String topic, int keys, int rate) {
        SplittableRandom random = new SplittableRandom(7);
        int perTick = Math.max(1, rate / 100);
        try (KafkaProducer<String, String> producer = producer(bootstrap)) {
            long next = System.nanoTime();
            while (running) {
                for (int i = 0; i < perTick; i++) {
                    var unused = producer.send(new ProducerRecord<>(topic, "k" + random.nextInt(keys), "x"), (m, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                }
                next += TimeUnit.MILLISECONDS.toNanos(10);
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    void check() {
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("Producing the steady input failed", f);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        check();
    }
}
