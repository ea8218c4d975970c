package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** One task reading partition 0 of two topics, "left" and "right", merged into one windowed count. */
final class MultiInputFixture implements AutoCloseable {

    final TestDriver driver;
    private final Map<String, TestInputTopic<String, String>> inputs;

    private MultiInputFixture(WatermarkStrategy strategy) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed =
                Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(strategy);
        EventStream<String, String> left = builder.stream("left", consumed);
        EventStream<String, String> right = builder.stream("right", consumed);
        left.merge(right)
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.as("counts"))
                .toStream()
                .to("out");
        // Idleness counts from the epoch: the tests give arrival times from there.
        driver = new TestDriver(builder.build(), TestDriverConfig.defaults().withStartTime(Instant.EPOCH));
        inputs = Map.of(
                "left",
                driver.input("left", Serdes.String(), Serdes.String()),
                "right",
                driver.input("right", Serdes.String(), Serdes.String()));
    }

    static MultiInputFixture of(Duration idleness) {
        return of(WatermarkStrategy.forMonotonousTimestamps().withIdleness(idleness));
    }

    static MultiInputFixture of(WatermarkStrategy strategy) {
        return new MultiInputFixture(strategy);
    }

    void pipe(String topic, long eventTime, long arrival) {
        inputs.get(topic).pipe(TestRecord.of("k", "v").at(eventTime).arrivingAt(arrival));
    }

    @Override
    public void close() {
        driver.close();
    }
}
