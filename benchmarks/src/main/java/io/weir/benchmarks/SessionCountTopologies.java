package io.weir.benchmarks;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindowedKStream;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.SessionStore;

import java.time.Duration;

/**
 * The session benchmark's topology, in both libraries: read {@code input} (String keys and values),
 * count records per key and session of {@value #GAP_MS} ms inactivity gap, write the counts to
 * {@code output}, with the store {@value CountTopologies#STORE} on RocksDB.
 *
 * <p>The input ({@link Windowing#SESSIONS}) has records out of order by up to {@value #MAX_DISORDER_MS}
 * ms, far more than the gap, so some records arrive after the session they belong to has ended by the
 * watermark: late records, which reopen, extend or bridge sessions that already fired. Weir's watermark
 * waits {@value #WATERMARK_DELAY_MS} ms and sessions accept late records for {@value #MAX_DISORDER_MS}
 * ms more, so no record is dropped; Kafka Streams gets the sum of both as grace, which closes a
 * session at the same event time (its end + gap + grace in Kafka Streams, where a session ends at its
 * last record; its end + delay + lateness in Weir, where it ends at its last record + gap).
 *
 * <p>Weir keeps two stores, {@code counts} (the aggregates) and {@code counts-sessions} (its per-key
 * index of sessions), each with a changelog; Kafka Streams one session store, {@code counts}.
 */
public final class SessionCountTopologies {

    /**
     * A key gets a record every {@code keys} ms on average (every 100 s at 100,000 keys and one record
     * per ms), so with a 1-minute gap about 40% of records extend a session of their key and late
     * records often fall between two sessions and merge them.
     */
    public static final long GAP_MS = Duration.ofMinutes(1).toMillis();

    public static final long WATERMARK_DELAY_MS = Duration.ofSeconds(5).toMillis();
    /** The input's disorder and Weir's allowed lateness. */
    public static final long MAX_DISORDER_MS = Duration.ofMinutes(10).toMillis();

    private SessionCountTopologies() {}

    public static Topology weir(String input, String output, StoreType storeType, WeirPanes panes) {
        StreamsBuilder builder = new StreamsBuilder();
        panes.applyTo(builder.stream(
                                input,
                                Consumed.with(Serdes.String(), Serdes.String())
                                        .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(
                                                Duration.ofMillis(WATERMARK_DELAY_MS))))
                        .groupByKey()
                        .windowedBy(SessionWindows.withGap(Duration.ofMillis(GAP_MS))
                                .withAllowedLateness(Duration.ofMillis(MAX_DISORDER_MS))))
                .count(Materialized.<String, Long>as(CountTopologies.STORE).withStoreType(storeType))
                .toStream()
                .to(output);
        return builder.build();
    }

    /** Kafka Streams' topology; {@code emit} is {@code UPDATES} or {@code ON_WINDOW_CLOSE}. */
    public static org.apache.kafka.streams.Topology kafkaStreams(
            String input,
            String output,
            org.apache.kafka.streams.kstream.Materialized.StoreType storeType,
            CountTopologies.KafkaStreamsEmit emit) {
        if (emit == CountTopologies.KafkaStreamsEmit.SUPPRESS) {
            throw new IllegalArgumentException("The session benchmark has no suppress variant");
        }
        Serde<String> strings = org.apache.kafka.common.serialization.Serdes.String();
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        SessionWindowedKStream<String, String> windowed = builder.stream(
                        input, org.apache.kafka.streams.kstream.Consumed.with(strings, strings))
                .groupByKey()
                .windowedBy(org.apache.kafka.streams.kstream.SessionWindows.ofInactivityGapAndGrace(
                        Duration.ofMillis(GAP_MS), Duration.ofMillis(WATERMARK_DELAY_MS + MAX_DISORDER_MS)));
        if (emit == CountTopologies.KafkaStreamsEmit.ON_WINDOW_CLOSE) {
            windowed = windowed.emitStrategy(EmitStrategy.onWindowClose());
        }
        windowed.count(org.apache.kafka.streams.kstream.Materialized.<String, Long, SessionStore<Bytes, byte[]>>as(
                                CountTopologies.STORE)
                        .withStoreType(storeType))
                .toStream()
                .to(
                        output,
                        Produced.with(
                                WindowedSerdes.sessionWindowedSerdeFrom(String.class),
                                org.apache.kafka.common.serialization.Serdes.Long()));
        return builder.build();
    }
}
