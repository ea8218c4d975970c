package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestMetrics;
import io.weir.streams.test.TestRecord;
import io.weir.streams.test.kafka.TempDirs;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Runs a {@link Scenario}'s aggregation in Weir's {@link TestDriver} over a {@link GeneratedStream}
 * and reads back what it produced in the model's terms: panes from the results topic (with their
 * {@link PaneInfo} headers), the late-data side output (with its {@link LateRecord} headers) and the
 * aggregation's metrics.
 */
final class WeirRun {

    static final String STORE = "aggregate";
    static final String RESULTS_TOPIC = "results";
    static final String LATE_TOPIC = "late";
    /** With the table view: its changes ({@code WindowedTable.toTable().toStream()}). */
    static final String ROWS_TOPIC = "rows";
    /** With the table view: its rows re-grouped by key and summed, the previous value of a window taken back. */
    static final String KEY_SUMS = "sums-per-key";

    private WeirRun() {}

    static Outcome run(Scenario scenario, GeneratedStream stream) {
        return run(scenario, stream, windowed -> windowed, driver -> {
            List<Pane> panes = driver.output(RESULTS_TOPIC, WindowedSerdes.string(), Serdes.Long()).readAll().stream()
                    .map(WeirRun::pane)
                    .toList();
            List<RefusedRecord> refused = !scenario.lateTopic()
                    ? List.of()
                    : driver.output(LATE_TOPIC, Serdes.String(), Serdes.Long()).readAll().stream()
                            .map(WeirRun::refused)
                            .toList();
            return new Outcome(panes, refused, counters(driver.metrics()));
        });
    }

    /**
     * Runs the scenario's aggregation with {@code settings} applied to its windowed stream (a trigger,
     * a refinement) over {@code stream} to the end of input, and returns what {@code read} takes from
     * the driver before it closes.
     */
    static <T> T run(
            Scenario scenario,
            GeneratedStream stream,
            UnaryOperator<WindowedStream<String, Long>> settings,
            Function<TestDriver, T> read) {
        return run(scenario, stream, settings, false, read);
    }

    /**
     * {@link #run(Scenario, GeneratedStream, UnaryOperator, Function)}; {@code asTable} also writes the
     * results' table view to {@link #ROWS_TOPIC} and its sums per key to the table {@link #KEY_SUMS}.
     */
    static <T> T run(
            Scenario scenario,
            GeneratedStream stream,
            UnaryOperator<WindowedStream<String, Long>> settings,
            boolean asTable,
            Function<TestDriver, T> read) {
        Path stateDir = newStateDir();
        TestDriverConfig config = TestDriverConfig.defaults()
                .withStartTime(Instant.ofEpochMilli(stream.startTime()))
                .withCacheMaxBytes(scenario.cacheBytes())
                .withStateDir(stateDir);
        for (String topic : stream.topics()) {
            config = config.withPartitions(topic, stream.partitions());
        }
        try (TestDriver driver = new TestDriver(topology(scenario, stream.topics(), settings, asTable), config)) {
            Map<String, TestInputTopic<String, Long>> inputs = new HashMap<>();
            stream.topics().forEach(topic -> inputs.put(topic, driver.input(topic, Serdes.String(), Serdes.Long())));
            for (StreamStep step : stream.steps()) {
                if (step instanceof StreamStep.Arrival arrival) {
                    InputRecord r = arrival.record();
                    inputs.get(r.topic())
                            .pipe(TestRecord.of(r.key(), r.value())
                                    .at(r.eventTime())
                                    .partition(r.partition())
                                    .arrivingAt(r.arrivalTime()));
                } else {
                    driver.advanceTimeTo(Instant.ofEpochMilli(((StreamStep.AdvanceTime) step).processingTime()));
                }
            }
            driver.endOfInput();
            return read.apply(driver);
        } finally {
            TempDirs.deleteRecursively(stateDir);
        }
    }

    /**
     * A fresh state dir, on a memory-backed file system when the machine has one: closing a RocksDB
     * store flushes it to disk, which on a busy disk costs more than the rest of a run. The same
     * RocksDB code runs either way.
     */
    private static Path newStateDir() {
        Path memory = Path.of("/dev/shm");
        try {
            return Files.isDirectory(memory) && Files.isWritable(memory)
                    ? Files.createTempDirectory(memory, "weir-property-")
                    : Files.createTempDirectory("weir-property-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a state dir", e);
        }
    }

    private static Topology topology(
            Scenario scenario,
            List<String> topics,
            UnaryOperator<WindowedStream<String, Long>> settings,
            boolean asTable) {
        WatermarkStrategy watermarks = WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(scenario.delay()));
        if (scenario.idleness().isPresent()) {
            watermarks = watermarks.withIdleness(
                    Duration.ofMillis(scenario.idleness().getAsLong()));
        }
        // The model knows no default: a scenario without a future skew trusts every event time.
        watermarks = scenario.maxFutureSkew().isPresent()
                ? watermarks.withMaxFutureSkew(
                        Duration.ofMillis(scenario.maxFutureSkew().getAsLong()))
                : watermarks.withoutMaxFutureSkew();
        Consumed<String, Long> consumed =
                Consumed.with(Serdes.String(), Serdes.Long()).withWatermarks(watermarks);
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, Long> input = builder.stream(topics.get(0), consumed);
        for (String topic : topics.subList(1, topics.size())) {
            input = input.merge(builder.stream(topic, consumed));
        }
        WindowedStream<String, Long> windowed = settings.apply(input.groupByKey()
                .windowedBy(scenario.windows().toWeir(Duration.ofMillis(scenario.allowedLateness()))));
        if (scenario.lateTopic()) {
            windowed = windowed.lateRecordsTo(LATE_TOPIC);
        }
        Materialized<String, Long> store = Materialized.<String, Long>as(STORE).withStoreType(scenario.storeType());
        WindowedTable<String, Long> table =
                scenario.aggregate() == Aggregate.COUNT ? windowed.count(store) : windowed.reduce(Long::sum, store);
        table.toStream().to(RESULTS_TOPIC);
        if (asTable) {
            Table<Windowed<String>, Long> rows = table.toTable();
            rows.toStream().to(ROWS_TOPIC);
            rows.groupBy(
                            (window, value) -> KeyValue.pair(window.key(), value),
                            Grouped.with(Serdes.String(), Serdes.Long()))
                    .reduce(Long::sum, (sum, value) -> sum - value, Materialized.as(KEY_SUMS));
        }
        return builder.build();
    }

    private static Pane pane(OutputRecord<Windowed<String>, Long> record) {
        PaneInfo info = record.pane().orElseThrow(() -> new AssertionError("A result without pane headers: " + record));
        Windowed<String> key = record.key();
        return new Pane(
                key.key(),
                key.window().start(),
                key.window().end(),
                record.value(),
                record.timestamp(),
                info.timing(),
                info.index(),
                info.isFinal());
    }

    private static RefusedRecord refused(OutputRecord<String, Long> record) {
        return new RefusedRecord(
                record.key(),
                record.value(),
                record.header(LateRecord.SOURCE_TOPIC_HEADER),
                Integer.parseInt(record.header(LateRecord.SOURCE_PARTITION_HEADER)),
                Long.parseLong(record.header(LateRecord.SOURCE_OFFSET_HEADER)),
                LateRecord.Reason.valueOf(record.header(LateRecord.REASON_HEADER)),
                LateRecord.refusedWindows(record.headers()),
                Long.parseLong(record.header(LateRecord.WATERMARK_HEADER)),
                Long.parseLong(record.header(LateRecord.EVENT_TIME_HEADER)),
                record.timestamp());
    }

    private static Outcome.Counters counters(TestMetrics metrics) {
        return new Outcome.Counters(
                metrics.get(STORE, WeirMetrics.LATE_RECORDS_ADDED),
                metrics.get(STORE, WeirMetrics.LATE_RECORDS_DROPPED),
                metrics.get(STORE, WeirMetrics.FUTURE_RECORDS_DROPPED),
                metrics.get(STORE, WeirMetrics.ON_TIME_PANES),
                metrics.get(STORE, WeirMetrics.LATE_PANES),
                metrics.get(STORE, WeirMetrics.SIDE_OUTPUT_RECORDS),
                metrics.get(STORE, WeirMetrics.SESSIONS_MERGED));
    }
}
