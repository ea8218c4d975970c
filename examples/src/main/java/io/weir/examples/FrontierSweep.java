package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestMetrics;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The latency / accuracy frontier of a recorded stream: replays it through Weir's real windowed count
 * (on a {@link TestDriver}) once per (watermark delay, allowed lateness) pair and measures each run
 * as a {@link FrontierRow}.
 *
 * <p>Each run is the topology {@code source (bounded out-of-orderness watermarks with the delay) ->
 * groupByKey -> tumbling windows (with the allowed lateness) -> count (in memory) -> output}. Records
 * are piped one at a time, each at its event time and arriving at its arrival time (the driver's
 * clock never moves back, so arrivals should not decrease); after each, the newly emitted panes are
 * read, so an ON_TIME pane is attributed to the record whose arrival fired it. Then the input ends:
 * the watermark jumps to infinity and every remaining window emits its result.
 */
final class FrontierSweep {

    private static final String INPUT = "events";
    private static final String STORE = "counts";
    private static final String OUTPUT = "counts-per-window";

    private final Duration window;

    /** A sweep over tumbling windows of {@code window} (positive). */
    FrontierSweep(Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("The window must be positive, was " + window);
        }
        this.window = window;
    }

    /** One row per (delay, lateness) pair: every lateness for the first delay, then for the next delay, and so on. */
    List<FrontierRow> run(List<FrontierEvent> events, List<Duration> delays, List<Duration> latenesses) {
        List<FrontierRow> rows = new ArrayList<>();
        for (Duration delay : delays) {
            for (Duration lateness : latenesses) {
                rows.add(run(events, delay, lateness));
            }
        }
        return rows;
    }

    /** Replays {@code events} with one watermark delay and one allowed lateness. */
    FrontierRow run(List<FrontierEvent> events, Duration delay, Duration lateness) {
        PaneTally tally = new PaneTally();
        long maxOpenWindows = 0;
        try (TestDriver driver = new TestDriver(topology(delay, lateness))) {
            TestInputTopic<String, String> input = driver.input(INPUT, Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> output =
                    driver.output(OUTPUT, WindowedSerdes.string(), Serdes.Long());
            for (FrontierEvent e : events) {
                input.pipe(TestRecord.of(e.key(), "").at(e.eventTimeMs()).arrivingAt(e.arrivalMs()));
                for (OutputRecord<Windowed<String>, Long> pane : output.readAll()) {
                    tally.addFiredBy(pane, driver.processingTime());
                }
                maxOpenWindows = Math.max(maxOpenWindows, driver.metrics().get(STORE, WeirMetrics.OPEN_WINDOWS));
            }
            driver.endOfInput();
            for (OutputRecord<Windowed<String>, Long> pane : output.readAll()) {
                tally.add(pane);
            }
            TestMetrics metrics = driver.metrics();
            Map<Windowed<String>, Long> trueCounts = trueCounts(events);
            long exact = trueCounts.entrySet().stream()
                    .filter(w -> w.getValue().equals(tally.finalCounts.get(w.getKey())))
                    .count();
            long inFirst = tally.firstCounts.values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            return new FrontierRow(
                    delay.toMillis(),
                    lateness.toMillis(),
                    metrics.get(STORE, WeirMetrics.LATE_RECORDS_DROPPED),
                    metrics.get(STORE, WeirMetrics.LATE_RECORDS_ADDED),
                    events.isEmpty() ? 0.0 : 100.0 * inFirst / events.size(),
                    exact,
                    trueCounts.size(),
                    tally.waits == 0 ? null : (double) tally.waitSumMs / tally.waits,
                    maxOpenWindows);
        }
    }

    private Topology topology(Duration delay, Duration lateness) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        INPUT,
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(delay)))
                .groupByKey()
                .windowedBy(TumblingWindows.of(window).withAllowedLateness(lateness))
                .count(Materialized.<String, Long>as(STORE).inMemory())
                .toStream()
                .to(OUTPUT);
        return builder.build();
    }

    /** How many input records each (key, window) really holds. */
    private Map<Windowed<String>, Long> trueCounts(List<FrontierEvent> events) {
        long size = window.toMillis();
        Map<Windowed<String>, Long> counts = new HashMap<>();
        for (FrontierEvent e : events) {
            long start = e.eventTimeMs() - Math.floorMod(e.eventTimeMs(), size);
            counts.merge(new Windowed<>(e.key(), new Window(start, start + size)), 1L, Long::sum);
        }
        return counts;
    }

    /** The panes of one run: each window's first and last count, and the waits of on-time panes fired by arrivals. */
    private static final class PaneTally {
        final Map<Windowed<String>, Long> firstCounts = new HashMap<>();
        final Map<Windowed<String>, Long> finalCounts = new HashMap<>();
        long waitSumMs;
        long waits;

        /** A pane emitted while the record arriving at {@code arrivalMs} was processed. */
        void addFiredBy(OutputRecord<Windowed<String>, Long> pane, long arrivalMs) {
            add(pane);
            if (pane.pane().orElseThrow().timing() == PaneInfo.Timing.ON_TIME) {
                waitSumMs += arrivalMs
                        - Objects.requireNonNull(pane.key(), "a pane has a key")
                                .window()
                                .end();
                waits++;
            }
        }

        /** A pane; its wait is not counted (it was emitted when the input ended). */
        void add(OutputRecord<Windowed<String>, Long> pane) {
            firstCounts.putIfAbsent(pane.key(), pane.value());
            finalCounts.put(pane.key(), pane.value());
        }
    }
}
