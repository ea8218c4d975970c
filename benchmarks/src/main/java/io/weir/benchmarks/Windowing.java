package io.weir.benchmarks;

import io.weir.streams.Topology;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;

import java.util.List;
import java.util.Locale;

/**
 * The two windowed counts of the test-driver benchmark, each with the input it is measured on: what
 * differs between a tumbling-window variant and a session variant besides the engine.
 */
enum Windowing {

    /** {@link CountTopologies}: 1-minute tumbling windows, input out of order by up to 30 s, nothing late. */
    TUMBLING(10_000, Workload.MAX_DELAY_MS, List.of(CountTopologies.STORE)) {
        @Override
        Topology weir(StoreType storeType, WeirPanes panes) {
            return CountTopologies.weir(Topics.INPUT, Topics.OUTPUT, storeType, panes);
        }

        @Override
        org.apache.kafka.streams.Topology kafkaStreams(
                Materialized.StoreType storeType, CountTopologies.KafkaStreamsEmit emit) {
            return CountTopologies.kafkaStreams(Topics.INPUT, Topics.OUTPUT, storeType, emit);
        }

        @Override
        Deserializer<Windowed<String>> kafkaStreamsKeys() {
            return WindowedSerdes.timeWindowedSerdeFrom(String.class, CountTopologies.WINDOW_MS)
                    .deserializer();
        }

        @Override
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Windowed count, 1-minute tumbling windows: %.0f%% of records out of order by up to "
                            + "%d s, none late",
                    Workload.OUT_OF_ORDER_FRACTION * 100,
                    Workload.MAX_DELAY_MS / 1000);
        }
    },

    /**
     * {@link SessionCountTopologies}: 1-minute gap, input out of order by up to 10 minutes, so that
     * some records are late for their session.
     */
    SESSIONS(
            100_000,
            SessionCountTopologies.MAX_DISORDER_MS,
            List.of(CountTopologies.STORE, CountTopologies.STORE + "-sessions")) {
        @Override
        Topology weir(StoreType storeType, WeirPanes panes) {
            return SessionCountTopologies.weir(Topics.INPUT, Topics.OUTPUT, storeType, panes);
        }

        @Override
        org.apache.kafka.streams.Topology kafkaStreams(
                Materialized.StoreType storeType, CountTopologies.KafkaStreamsEmit emit) {
            return SessionCountTopologies.kafkaStreams(Topics.INPUT, Topics.OUTPUT, storeType, emit);
        }

        @Override
        Deserializer<Windowed<String>> kafkaStreamsKeys() {
            return WindowedSerdes.sessionWindowedSerdeFrom(String.class).deserializer();
        }

        @Override
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Session count, %d s gap: %.0f%% of records out of order by up to %d s; Weir: "
                            + "watermark delay %d s, allowed lateness %d s; Kafka Streams: grace %d s",
                    SessionCountTopologies.GAP_MS / 1000,
                    Workload.OUT_OF_ORDER_FRACTION * 100,
                    SessionCountTopologies.MAX_DISORDER_MS / 1000,
                    SessionCountTopologies.WATERMARK_DELAY_MS / 1000,
                    SessionCountTopologies.MAX_DISORDER_MS / 1000,
                    (SessionCountTopologies.WATERMARK_DELAY_MS + SessionCountTopologies.MAX_DISORDER_MS) / 1000);
        }
    };

    private final int defaultKeys;
    private final long maxDisorderMs;
    // Set once from List.of(...) in each constant: immutable, though Error Prone cannot tell from the type.
    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> weirStores;

    Windowing(int defaultKeys, long maxDisorderMs, List<String> weirStores) {
        this.defaultKeys = defaultKeys;
        this.maxDisorderMs = maxDisorderMs;
        this.weirStores = weirStores;
    }

    /** The key count a variant runs at when neither {@code --keys} nor {@code @KEYS} says. */
    int defaultKeys() {
        return defaultKeys;
    }

    /** The input: one record every {@code intervalMs} of processing time from {@link Workload#START}, out of order as this windowing wants. */
    Workload workload(int records, int keys, long intervalMs) {
        return Workload.generate(records, keys, (double) intervalMs, Workload.START, maxDisorderMs);
    }

    /** The stores of Weir's topology; each has a changelog. */
    List<String> weirStores() {
        return weirStores;
    }

    abstract Topology weir(StoreType storeType, WeirPanes panes);

    abstract org.apache.kafka.streams.Topology kafkaStreams(
            Materialized.StoreType storeType, CountTopologies.KafkaStreamsEmit emit);

    /** Reads the keys of Kafka Streams' output. */
    abstract Deserializer<Windowed<String>> kafkaStreamsKeys();

    /** One line on the topology and its input, for the report. */
    abstract String describe();
}
