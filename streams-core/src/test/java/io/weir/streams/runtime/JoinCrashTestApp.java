package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.ExternalKafkaBroker;
import io.weir.streams.time.WatermarkStrategy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The joins {@link JoinCrashTest} kills, run in a child JVM under exactly-once. Arguments: bootstrap,
 * application id, mode ({@code fk} or {@code windowed}), left input, right input, output, state dir.
 * <ul>
 *   <li>{@code fk}: the table "orders" (order -> customer) joined by its value with the table
 *       "customers" (customer -> name), the name written per order;</li>
 *   <li>{@code windowed}: two streams joined by key within {@link #WINDOW} either way, "left+right"
 *       written per pair; a watermark delay of an hour, so no record of the test is late.</li>
 * </ul>
 */
public final class JoinCrashTestApp {

    static final Duration WINDOW = Duration.ofSeconds(1);

    private JoinCrashTestApp() {}

    static Topology topology(String mode, String left, String right, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        if (mode.equals("fk")) {
            Table<String, String> orders =
                    builder.table(left, Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("orders"));
            Table<String, String> customers =
                    builder.table(right, Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("customers"));
            orders.join(customers, customer -> customer, (customer, name) -> name, Materialized.as("named-orders"))
                    .toStream()
                    .to(out, Produced.with(Serdes.String(), Serdes.String()));
        } else {
            Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String())
                    .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofHours(1)));
            builder.stream(left, consumed)
                    .join(builder.stream(right, consumed), (l, r) -> l + "+" + r, JoinWindows.of(WINDOW))
                    .to(out, Produced.with(Serdes.String(), Serdes.String()));
        }
        return builder.build();
    }

    public static void main(String[] args) throws InterruptedException {
        ExternalKafkaBroker broker = ExternalKafkaBroker.at(args[0]);
        Map<String, Object> config = WindowedCountApp.config(broker, args[1], Path.of(args[6]));
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        WeirStreams app = new WeirStreams(topology(args[2], args[3], args[4], args[5]), config);
        CrashTestApp.runUntilStopped(app);
    }
}
