package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;

import java.time.Duration;
import java.util.List;

/**
 * The topology most contract tests use: topic "events" (String keys and values, event time = Kafka
 * timestamp) -> 10 s tumbling windows -> count in store "counts" -> topic "counts-out"; refused
 * records to "late" when asked. Times in the tests are plain milliseconds for readability.
 */
final class WindowedCountFixture implements AutoCloseable {

    static final long WINDOW = 10_000;

    final TestDriver driver;
    final TestInputTopic<String, String> events;
    final TestOutputTopic<Windowed<String>, Long> counts;
    final TestOutputTopic<String, String> late;

    private WindowedCountFixture(Topology topology, TestDriverConfig config, boolean withLateTopic) {
        driver = new TestDriver(topology, config);
        events = driver.input("events", Serdes.String(), Serdes.String());
        counts = driver.output("counts-out", WindowedSerdes.string(), Serdes.Long());
        late = withLateTopic ? driver.output("late", Serdes.String(), Serdes.String()) : null;
    }

    static WindowedCountFixture of(WatermarkStrategy watermarks, Duration lateness, boolean lateTopic, int partitions) {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedStream<String, String> windowed = builder.stream(
                        "events",
                        Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(watermarks))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW)).withAllowedLateness(lateness));
        if (lateTopic) {
            windowed = windowed.lateRecordsTo("late");
        }
        windowed.count(Materialized.as("counts")).toStream().to("counts-out");
        return new WindowedCountFixture(
                builder.build(), TestDriverConfig.defaults().withPartitions("events", partitions), lateTopic);
    }

    static WindowedCountFixture of(long delayMs, long latenessMs) {
        return of(
                WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(delayMs)),
                Duration.ofMillis(latenessMs),
                true,
                1);
    }

    void pipe(String key, long eventTime) {
        events.pipe(TestRecord.of(key, "v").at(eventTime).partition(0));
    }

    void pipe(String key, long eventTime, int partition, long arrival) {
        events.pipe(TestRecord.of(key, "v").at(eventTime).partition(partition).arrivingAt(arrival));
    }

    long watermark() {
        return driver.watermark("events", 0);
    }

    List<OutputRecord<Windowed<String>, Long>> panes() {
        return counts.readAll();
    }

    @Override
    public void close() {
        driver.close();
    }
}
