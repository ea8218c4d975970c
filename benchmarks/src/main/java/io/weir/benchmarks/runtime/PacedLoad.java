package io.weir.benchmarks.runtime;

import io.weir.benchmarks.Workload;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Produces a {@link Workload} at its own pace: record {@code i} is sent when {@code arrivalTime(i) - start()}
 * has passed since the load began, with its event time as the record timestamp. Remembers when each
 * record was handed to the producer ({@link System#nanoTime()}) and the partition it went to.
 */
final class PacedLoad {

    private final Workload workload;
    private final long[] sentNanos;
    private final int[] partitions;

    private PacedLoad(Workload workload) {
        this.workload = workload;
        this.sentNanos = new long[workload.size()];
        this.partitions = new int[workload.size()];
    }

    /** Sends every record of {@code workload} to {@code topic} on schedule; returns once all are acknowledged. */
    static PacedLoad run(String bootstrap, String topic, Workload workload) {
        PacedLoad load = new PacedLoad(workload);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(),
                new StringSerializer())) {
            long begin = System.nanoTime();
            for (int i = 0; i < workload.size() && failure.get() == null; i++) {
                long due = begin + (workload.arrivalTime(i) - workload.start()) * 1_000_000;
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                int index = i;
                load.sentNanos[i] = System.nanoTime();
                // The callback handles the outcome; the future adds nothing.
                @SuppressWarnings("FutureReturnValueIgnored")
                var unused = producer.send(
                        new ProducerRecord<>(topic, null, workload.eventTime(i), workload.key(i), Workload.VALUE),
                        (m, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            } else {
                                load.partitions[index] = m.partition();
                            }
                        });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Producing to " + topic + " failed: " + failure.get(), failure.get());
        }
        return load;
    }

    Workload workload() {
        return workload;
    }

    long sentNanos(int i) {
        return sentNanos[i];
    }

    int partition(int i) {
        return partitions[i];
    }

    /** Seconds from the first send to the last. */
    double seconds() {
        return (sentNanos[sentNanos.length - 1] - sentNanos[0]) / 1e9;
    }
}
