package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.streams.test.kafka.ExternalKafkaBroker;
import io.weir.streams.test.kafka.KafkaBroker;

import java.util.List;

/**
 * The windowed count on a real broker, Weir beside Kafka Streams 4.4 (two emit strategies) and the
 * stateful ceiling (a plain consumer and transactional producer loop), all exactly-once with a commit
 * every 100 ms: throughput over a pre-loaded input, end-to-end latency at a steady rate, and restore
 * rate into a fresh instance. See benchmarks/README.md for what each number means.
 *
 * <p>Starts the repository's standalone broker ({@code bin/kafka-broker}) in its own process unless
 * {@code --bootstrap} names one, and stops it at the end. The apps run in this JVM, one after another.
 */
public final class RuntimeBenchmark {

    private RuntimeBenchmark() {}

    public static void main(String[] args) throws Exception {
        RuntimeOptions options = CommandLine.parseOrExit(args, RuntimeOptions::parse);
        String command = CommandLine.of(RuntimeBenchmark.class, args);
        try (KafkaBroker broker = options.bootstrap() != null
                ? ExternalKafkaBroker.at(options.bootstrap()).start()
                : StandaloneBroker.start(options.brokerScript())) {
            String where = options.bootstrap() != null
                    ? "external, " + options.bootstrap()
                    : "bin/kafka-broker (its own process, -Xmx2g) at " + broker.bootstrapServers();
            System.out.print(run(broker, options, command, where).text());
        }
    }

    /** Every phase's runs, and the report they make. */
    record Results(
            List<Runs<ThroughputPhase.Row>> throughput,
            List<LatencyPhase.Row> latency,
            List<Runs<RestorePhase.Row>> restore,
            String text) {}

    /**
     * Runs the phases {@code options} ask for on {@code broker} (which the caller owns). A pre-load or run
     * that fails is run once more ({@link RetryOnce}); the report lists those that were.
     *
     * @throws Exception a step's second failure, with its first suppressed in it
     */
    static Results run(KafkaBroker broker, RuntimeOptions options, String command, String brokerDescription)
            throws Exception {
        try (BenchContext context = new BenchContext(broker, options)) {
            List<Runs<ThroughputPhase.Row>> throughput =
                    options.runs(RuntimeOptions.Phase.THROUGHPUT) ? ThroughputPhase.run(context) : List.of();
            List<LatencyPhase.Row> latency =
                    options.runs(RuntimeOptions.Phase.LATENCY) ? LatencyPhase.run(context) : List.of();
            List<Runs<RestorePhase.Row>> restore =
                    options.runs(RuntimeOptions.Phase.RESTORE) ? RestorePhase.run(context) : List.of();
            return new Results(
                    throughput,
                    latency,
                    restore,
                    RuntimeReport.format(command, brokerDescription, options, throughput, latency, restore)
                            + context.retry().report());
        }
    }
}
