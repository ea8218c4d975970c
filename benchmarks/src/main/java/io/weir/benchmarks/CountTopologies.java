package io.weir.benchmarks;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindowedKStream;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

import java.time.Duration;

/**
 * The topology every benchmark runs, in both libraries: read {@code input} (String keys and values),
 * count records per key over 1-minute tumbling windows, write the counts to {@code output}. Nothing
 * in {@link Workload} is late: Weir waits {@value Workload#MAX_DELAY_MS} ms of bounded
 * out-of-orderness, Kafka Streams gives the same as grace.
 *
 * <p>Weir writes, by default, one on-time pane per window and key (key {@code WindowedSerdes.string()},
 * value a long), or what the variant's {@link WeirPanes} say; Kafka Streams writes with its
 * time-windowed String serde and a long, as {@link KafkaStreamsEmit} says.
 */
public final class CountTopologies {

    /** The store of both topologies; its changelog is {@code <application.id>-counts-changelog}. */
    public static final String STORE = "counts";

    public static final long WINDOW_MS = Duration.ofMinutes(1).toMillis();

    /** What Kafka Streams' count emits. */
    public enum KafkaStreamsEmit {
        /** The default: every update its record cache lets through (at each commit, or when the cache evicts). */
        UPDATES,
        /** {@code emitStrategy(EmitStrategy.onWindowClose())}: one result per window, once stream time passes its end + grace. */
        ON_WINDOW_CLOSE,
        /** {@code suppress(Suppressed.untilWindowCloses(unbounded()))} after the count: one result per window, from a suppression buffer. */
        SUPPRESS
    }

    private CountTopologies() {}

    /** Weir's topology with its default trigger and refinement: one on-time pane per window. */
    public static Topology weir(String input, String output, StoreType storeType) {
        return weir(input, output, storeType, WeirPanes.DEFAULT);
    }

    /** Weir's topology, emitting as {@code panes} says. */
    public static Topology weir(String input, String output, StoreType storeType, WeirPanes panes) {
        StreamsBuilder builder = new StreamsBuilder();
        panes.applyTo(builder.stream(
                                input,
                                Consumed.with(Serdes.String(), Serdes.String())
                                        .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(
                                                Duration.ofMillis(Workload.MAX_DELAY_MS))))
                        .groupByKey()
                        .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW_MS))))
                .count(Materialized.<String, Long>as(STORE).withStoreType(storeType))
                .toStream()
                .to(output);
        return builder.build();
    }

    public static org.apache.kafka.streams.Topology kafkaStreams(
            String input,
            String output,
            org.apache.kafka.streams.kstream.Materialized.StoreType storeType,
            KafkaStreamsEmit emit) {
        Serde<String> strings = org.apache.kafka.common.serialization.Serdes.String();
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        TimeWindowedKStream<String, String> windowed = builder.stream(
                        input, org.apache.kafka.streams.kstream.Consumed.with(strings, strings))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(
                        Duration.ofMillis(WINDOW_MS), Duration.ofMillis(Workload.MAX_DELAY_MS)));
        if (emit == KafkaStreamsEmit.ON_WINDOW_CLOSE) {
            windowed = windowed.emitStrategy(EmitStrategy.onWindowClose());
        }
        KTable<Windowed<String>, Long> counts = windowed.count(
                org.apache.kafka.streams.kstream.Materialized.<String, Long, WindowStore<Bytes, byte[]>>as(STORE)
                        .withStoreType(storeType));
        if (emit == KafkaStreamsEmit.SUPPRESS) {
            counts = counts.suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded())
                    .withName(STORE + "-suppress"));
        }
        counts.toStream()
                .to(
                        output,
                        Produced.with(
                                WindowedSerdes.timeWindowedSerdeFrom(String.class, WINDOW_MS),
                                org.apache.kafka.common.serialization.Serdes.Long()));
        return builder.build();
    }
}
