package io.weir.benchmarks.runtime;

import io.weir.benchmarks.TableTopologies;
import io.weir.streams.Topology;

import java.util.Properties;

/** The table workloads {@link TableBenchmark} runs, each in both libraries (see {@link TableTopologies}). */
enum TableWorkload {
    WORD_COUNT("word count"),
    REGROUP("re-keyed table aggregation"),
    KEY_COUNT("count per key");

    /** The engines compared. */
    enum Engine {
        WEIR("weir"),
        KAFKA_STREAMS("kafka-streams");

        private final String id;

        Engine(String id) {
            this.id = id;
        }

        String id() {
            return id;
        }

        static Engine byId(String id) {
            for (Engine e : values()) {
                if (e.id.equals(id)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("Unknown engine '" + id + "'; the engines are weir, kafka-streams");
        }
    }

    private final String title;

    TableWorkload(String title) {
        this.title = title;
    }

    String title() {
        return title;
    }

    /** An instance of {@code engine} running this workload as {@code setup} says. */
    StreamingApp open(Engine engine, AppSetup setup) {
        if (engine == Engine.WEIR) {
            return new WeirApp(setup, weirTopology(setup.input(), setup.output()));
        }
        Properties extra = new Properties();
        extra.put(
                org.apache.kafka.streams.StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG,
                TableTopologies.KAFKA_STREAMS_OPTIMIZATION);
        return new KafkaStreamsApp(setup, kafkaStreamsTopology(setup.input(), setup.output()), extra);
    }

    private Topology weirTopology(String input, String output) {
        return switch (this) {
            case WORD_COUNT -> TableTopologies.weirWordCount(input, output);
            case REGROUP -> TableTopologies.weirRegroup(input, output);
            case KEY_COUNT -> TableTopologies.weirKeyCount(input, output);
        };
    }

    private org.apache.kafka.streams.Topology kafkaStreamsTopology(String input, String output) {
        return switch (this) {
            case WORD_COUNT -> TableTopologies.kafkaStreamsWordCount(input, output);
            case REGROUP -> TableTopologies.kafkaStreamsRegroup(input, output);
            case KEY_COUNT -> TableTopologies.kafkaStreamsKeyCount(input, output);
        };
    }
}
