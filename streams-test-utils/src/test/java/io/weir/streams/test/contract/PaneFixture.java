package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The topology of the trigger, refinement and session tests: topic "in" (String keys, Long values,
 * event time = Kafka timestamp, no watermark delay) -> windows -> sum per key and window in store
 * "sums" -> topic "out". Panes read back as one line each, {@code key[start,end) value TIMING#index},
 * with {@code final} and {@code retraction} appended where they apply, so a test reads like the
 * timeline it draws. Processing time starts at 0 and moves with each record's arrival.
 */
final class PaneFixture implements AutoCloseable {

    final TestDriver driver;
    private final TestInputTopic<String, Long> in;
    private final TestOutputTopic<Windowed<String>, Long> out;

    private PaneFixture(StreamsBuilder builder) {
        driver = new TestDriver(builder.build());
        in = driver.input("in", Serdes.String(), Serdes.Long());
        out = driver.output("out", WindowedSerdes.string(), Serdes.Long());
    }

    /** Sums over {@code windows}, with {@code settings} applied to the windowed stream (trigger, refinement, ...). */
    static PaneFixture of(Windows windows, UnaryOperator<WindowedStream<String, Long>> settings, StoreType type) {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedStream<String, Long> windowed = builder.stream(
                        "in",
                        Consumed.with(Serdes.String(), Serdes.Long())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(windows);
        settings.apply(windowed)
                .reduce(Long::sum, Materialized.<String, Long>as("sums").withStoreType(type))
                .toStream()
                .to("out");
        return new PaneFixture(builder);
    }

    static PaneFixture of(Windows windows, UnaryOperator<WindowedStream<String, Long>> settings) {
        return of(windows, settings, StoreType.IN_MEMORY);
    }

    /** A record of {@code key} with event time {@code eventTime}, arriving at processing time {@code arrival}. */
    void pipe(String key, long eventTime, long value, long arrival) {
        in.pipe(TestRecord.of(key, value).at(eventTime).arrivingAt(arrival));
    }

    void advanceTimeTo(long processingTime) {
        driver.advanceTimeTo(Instant.ofEpochMilli(processingTime));
    }

    /** The panes emitted since the last read, one line each. */
    List<String> panes() {
        return records().stream().map(PaneFixture::line).toList();
    }

    /** The records emitted since the last read. */
    List<OutputRecord<Windowed<String>, Long>> records() {
        return out.readAll();
    }

    static String line(OutputRecord<Windowed<String>, Long> r) {
        PaneInfo pane = r.pane().orElseThrow(() -> new AssertionError("no pane headers on " + r));
        return r.key().key() + "[" + r.key().window().start() + ","
                + r.key().window().end() + ") " + r.value() + " "
                + pane.timing() + "#" + pane.index() + (pane.isFinal() ? " final" : "")
                + (pane.isRetraction() ? " retraction" : "");
    }

    static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    @Override
    public void close() {
        driver.close();
    }
}
