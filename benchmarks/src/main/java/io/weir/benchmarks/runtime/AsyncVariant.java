package io.weir.benchmarks.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;

import java.util.Arrays;
import java.util.Properties;

/**
 * The ways {@link AsyncBenchmark} makes the same remote call for each record: Weir's {@code mapValuesAsync},
 * and Weir's and Kafka Streams' {@code mapValues} waiting for the answer on the stream thread.
 */
enum AsyncVariant {
    WEIR_ASYNC("weir-async"),
    WEIR_BLOCKING("weir-blocking"),
    KS_BLOCKING("ks-blocking");

    private final String id;

    AsyncVariant(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    /** Whether the stream thread waits for each call. */
    boolean blocking() {
        return this != WEIR_ASYNC;
    }

    static AsyncVariant byId(String id) {
        return Arrays.stream(values())
                .filter(v -> v.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown variant " + id + "; known: "
                        + Arrays.stream(values()).map(AsyncVariant::id).toList()));
    }

    /**
     * An application reading {@code setup}'s input and writing each record's answer from {@code service} to
     * its output; {@code capacity} is the async operator's (unused by the blocking variants).
     */
    StreamingApp open(AppSetup setup, ScoringService service, int capacity) {
        if (this == KS_BLOCKING) {
            org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
            builder.stream(
                            setup.input(),
                            org.apache.kafka.streams.kstream.Consumed.with(
                                    org.apache.kafka.common.serialization.Serdes.String(),
                                    org.apache.kafka.common.serialization.Serdes.String()))
                    .mapValues(service::callBlocking)
                    .to(
                            setup.output(),
                            org.apache.kafka.streams.kstream.Produced.with(
                                    org.apache.kafka.common.serialization.Serdes.String(),
                                    org.apache.kafka.common.serialization.Serdes.String()));
            return new KafkaStreamsApp(setup, builder.build(), new Properties());
        }
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> input =
                builder.stream(setup.input(), Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> scored = this == WEIR_ASYNC
                ? input.mapValuesAsync(
                        service::call, Async.<String, String>as("score").withCapacity(capacity))
                : input.mapValues(service::callBlocking);
        scored.to(setup.output(), Produced.with(Serdes.String(), Serdes.String()));
        return new WeirApp(setup, builder.build());
    }
}
