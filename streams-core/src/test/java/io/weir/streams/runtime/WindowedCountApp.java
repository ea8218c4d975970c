package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.time.WatermarkStrategy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A windowed count used by the runtime tests: "in" -> 10 s tumbling windows -> count -> "out". */
final class WindowedCountApp {

    static final long WINDOW = 10_000;

    private WindowedCountApp() {}

    static Topology topology(String in, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        in,
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW)))
                .count(Materialized.as("counts"))
                .toStream()
                .to(out);
        return builder.build();
    }

    static WeirStreams instance(
            KafkaBroker broker, String app, String in, String out, Path stateDir, String guarantee) {
        return instance(broker, app, in, out, stateDir, guarantee, Map.of());
    }

    /** @param extra further settings, which win over the defaults here */
    static WeirStreams instance(
            KafkaBroker broker,
            String app,
            String in,
            String out,
            Path stateDir,
            String guarantee,
            Map<String, ?> extra) {
        Map<String, Object> config = config(broker, app, stateDir);
        config.put(StreamsConfig.PROCESSING_GUARANTEE, guarantee);
        config.putAll(extra);
        return new WeirStreams(topology(in, out), config);
    }

    /**
     * The settings every runtime test starts from (a mutable map): a short session timeout, so a
     * killed member's tasks move within seconds.
     */
    static Map<String, Object> config(KafkaBroker broker, String app, Path stateDir) {
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, app);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, stateDir.toString());
        config.put("consumer.session.timeout.ms", 10_000);
        config.put("consumer.heartbeat.interval.ms", 1_000);
        return config;
    }
}
