package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.ExternalKafkaBroker;

import java.nio.file.Path;
import java.util.Map;

/**
 * A re-keyed table aggregation run in a child JVM by {@link TableCrashTest}: the table "profiles"
 * (user -> region), grouped by region and counted, written as text to the output. Arguments:
 * bootstrap, application id, input, output, state dir.
 */
public final class TableCrashTestApp {

    private TableCrashTestApp() {}

    static Topology topology(String in, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(in, Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("profiles"))
                .groupBy((user, region) -> KeyValue.pair(region, user))
                .count(Materialized.as("users-per-region"))
                .toStream()
                .mapValues(count -> count == null ? null : Long.toString(count))
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    public static void main(String[] args) throws InterruptedException {
        ExternalKafkaBroker broker = ExternalKafkaBroker.at(args[0]);
        Map<String, Object> config = WindowedCountApp.config(broker, args[1], Path.of(args[4]));
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        WeirStreams app = new WeirStreams(topology(args[2], args[3]), config);
        CrashTestApp.runUntilStopped(app);
    }
}
