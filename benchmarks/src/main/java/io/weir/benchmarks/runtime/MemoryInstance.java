package io.weir.benchmarks.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The instance {@link MemoryBenchmark} measures, in a child JVM of its own so that its resident memory
 * is its own: a table aggregation (records counted per key, one RocksDB store per task) over every
 * partition of the input. Prints a status line every 500 ms ({@code STATUS consumed=<records>
 * rocksdb=<bytes> cache=<bytes>}) until it is stopped (SIGTERM closes it), or, if the instance fails
 * (state {@code ERROR}, e.g. its heap is too small for its tasks), prints {@code FAILED <error>} and
 * exits with status 1.
 *
 * <p>Arguments: bootstrap servers, application id, state directory, input topic, output topic, and the
 * RocksDB memory bound in bytes ({@code -1} for none).
 */
public final class MemoryInstance {

    private MemoryInstance() {}

    public static void main(String[] args) throws InterruptedException {
        String bootstrap = args[0];
        String app = args[1];
        String stateDir = args[2];
        String input = args[3];
        String output = args[4];
        long bound = Long.parseLong(args[5]);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, app);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, bootstrap);
        config.put(StreamsConfig.STATE_DIR, stateDir);
        config.put(StreamsConfig.REPLICATION_FACTOR, (short) 1);
        config.put(StreamsConfig.ROCKSDB_MEMORY_MAX_BYTES, bound);
        CountDownLatch stopped = new CountDownLatch(1);
        WeirStreams streams = new WeirStreams(builder.build(), config);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(30));
            stopped.countDown();
        }));
        streams.start();
        while (!stopped.await(500, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            if (streams.state() == WeirStreams.State.ERROR) {
                // Failed for good: exit at once (the benchmark reports the log above this line) rather than
                // print a status that no longer moves until the benchmark times out.
                System.out.println(
                        "FAILED " + streams.error().map(Throwable::toString).orElse("(no error)"));
                System.out.flush();
                Runtime.getRuntime().halt(1);
            }
            System.out.printf(
                    "STATUS consumed=%d rocksdb=%d cache=%d%n",
                    (long) sum(streams, WeirMetrics.RECORDS_CONSUMED),
                    (long) sum(streams, WeirMetrics.ROCKSDB_MEMORY_USED_BYTES),
                    (long) sum(streams, WeirMetrics.CACHE_USED_BYTES));
            System.out.flush();
        }
    }

    private static double sum(WeirStreams streams, String metric) {
        return streams.allMetrics().stream()
                .filter(m -> m.name().equals(metric))
                .mapToDouble(WeirMetric::value)
                .sum();
    }
}
