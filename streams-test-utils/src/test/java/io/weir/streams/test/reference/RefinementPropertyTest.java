package io.weir.streams.test.reference;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.reference.WindowShape.Hopping;
import io.weir.streams.test.reference.WindowShape.Session;
import io.weir.streams.test.reference.WindowShape.Sliding;
import io.weir.streams.test.reference.WindowShape.Tumbling;
import io.weir.streams.time.Windowed;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property test of triggers and refinement modes on random out-of-order streams (the generator of
 * {@link WindowedAggregationPropertyTest}): each stream runs once with the default trigger and four
 * times with a trigger that fires early and late, one run per refinement. Whatever the trigger and
 * mode, the windows and their final values must be the same; and per window:
 * <ul>
 *   <li>accumulating: the last pane holds the final value;</li>
 *   <li>discarding: the panes add up to the final value (for sessions, which merge, per key: all of a
 *       key's panes add up to the final values of its sessions);</li>
 *   <li>retracting: a downstream sum that adds panes and subtracts retractions ends with exactly the
 *       final values, and 0 for every session merged away; each retraction carries the value of the
 *       window's previous pane;</li>
 *   <li>in every mode, pane indexes run 0, 1, 2, ... and EARLY panes come before any other;</li>
 *   <li>accumulating, with or without retractions: the table view's changes applied as upserts hold
 *       exactly the final values (a session merged away deleted), and its rows re-grouped by key and summed
 *       with a subtractor give each key's sum of final values.</li>
 * </ul>
 * The final values are those of the default trigger's run under retracting refinement, whose
 * correctness against a brute-force model {@link WindowedAggregationPropertyTest} checks.
 */
class RefinementPropertyTest {

    private static final int SEEDS = 120;
    private static final int TABLE_VIEW_EVERY = 3;

    record Case(String name, Scenario scenario, Trigger trigger) {
        @Override
        public String toString() {
            return name + ": " + scenario + " " + trigger;
        }
    }

    static List<Case> cases() {
        Trigger earlyAndLate = Trigger.onTime().withEarlyFirings(Duration.ofMillis(15));
        Trigger everyTwo = Trigger.afterCount(2).withEarlyFirings(Duration.ofMillis(40));
        Trigger lateTicks =
                Trigger.onTime().withEarlyFirings(Duration.ofMillis(25)).withLateFirings(Duration.ofMillis(20));
        return List.of(
                new Case(
                        "tumbling",
                        Scenario.of(new Tumbling(50))
                                .lateness(40)
                                .delay(5)
                                .idleness(100)
                                .build(),
                        earlyAndLate),
                new Case(
                        "tumbling",
                        Scenario.of(new Tumbling(50)).lateness(60).sum().build(),
                        lateTicks),
                new Case(
                        "hopping",
                        Scenario.of(new Hopping(60, 20)).lateness(30).delay(10).build(),
                        everyTwo),
                new Case(
                        "sliding",
                        Scenario.of(new Sliding(20)).lateness(25).sum().build(),
                        earlyAndLate),
                new Case(
                        "session",
                        Scenario.of(new Session(30, 0)).lateness(40).delay(5).build(),
                        earlyAndLate),
                new Case(
                        "session",
                        Scenario.of(new Session(30, 90)).lateness(60).sum().build(),
                        lateTicks),
                new Case(
                        "session",
                        Scenario.of(new Session(25, 0))
                                .lateness(50)
                                .idleness(80)
                                .build(),
                        everyTwo));
    }

    /** One result record as emitted: window, value, pane info. */
    record Emitted(String key, long start, long end, long value, PaneInfo pane) {
        String window() {
            return key + "@[" + start + "," + end + ")";
        }

        @Override
        public String toString() {
            return window() + " " + value + " " + pane;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyRefinementAgreesOnTheFinalValues(Case c) {
        long retractionsSeen = 0;
        long earlySeen = 0;
        long tableViewsSeen = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            GeneratedStream stream = StreamGenerator.generate(c.scenario(), seed);
            Map<String, Long> finals =
                    net(run(c.scenario(), stream, Trigger.onTime(), Refinement.ACCUMULATING_AND_RETRACTING, false)
                            .panes());
            List<String> problems = new ArrayList<>();
            // The table view adds a re-grouping through a repartition topic to a run: every third stream.
            boolean asTable = seed % TABLE_VIEW_EVERY == 0;
            Output accumulatingRun = run(c.scenario(), stream, c.trigger(), Refinement.ACCUMULATING, asTable);
            List<Emitted> accumulating = accumulatingRun.panes();
            List<Emitted> discarding = run(c.scenario(), stream, c.trigger(), Refinement.DISCARDING, false)
                    .panes();
            Output retractingRun =
                    run(c.scenario(), stream, c.trigger(), Refinement.ACCUMULATING_AND_RETRACTING, asTable);
            List<Emitted> retracting = retractingRun.panes();
            for (Output full : List.of(accumulatingRun, retractingRun)) {
                TableView view = full.view();
                if (view != null) {
                    compare(problems, full.refinement() + " table view applied as upserts", finals, view.rows());
                    compare(
                            problems,
                            full.refinement() + " table view summed per key",
                            perKey(finals),
                            view.sumsPerKey());
                    tableViewsSeen++;
                }
            }
            Map<String, Long> lastAccumulating = new TreeMap<>();
            accumulating.forEach(e -> lastAccumulating.put(e.window(), e.value()));
            if (c.scenario().windows() instanceof Session) {
                lastAccumulating.keySet().retainAll(finals.keySet());
                compare(problems, "discarding panes summed per key", perKey(finals), perKey(sum(discarding)));
            } else {
                compare(problems, "discarding panes summed per window", finals, sum(discarding));
            }
            compare(problems, "last accumulating pane per window", finals, lastAccumulating);
            compare(problems, "retracting output applied to a downstream sum", finals, net(retracting));
            for (List<Emitted> run : List.of(accumulating, discarding, retracting)) {
                problems.addAll(orderViolations(run));
            }
            problems.addAll(retractionViolations(retracting));
            if (!problems.isEmpty()) {
                fail(c + ", seed " + seed + ":\n  " + String.join("\n  ", problems) + "\n"
                        + stream.describe(stream.steps().stream().map(s -> "").toList()) + "retracting output:\n  "
                        + String.join(
                                "\n  ",
                                retracting.stream().map(Emitted::toString).toList()));
            }
            retractionsSeen +=
                    retracting.stream().filter(e -> e.pane().isRetraction()).count();
            earlySeen += accumulating.stream()
                    .filter(e -> e.pane().timing() == PaneInfo.Timing.EARLY)
                    .count();
        }
        assertTrue(retractionsSeen > 0, "no retraction in any stream");
        assertTrue(earlySeen > 0, "no EARLY pane in any stream");
        assertTrue(tableViewsSeen >= 2 * SEEDS / TABLE_VIEW_EVERY, "table views checked: " + tableViewsSeen);
    }

    private static void compare(
            List<String> problems, String what, Map<String, Long> expected, Map<String, Long> actual) {
        if (!expected.equals(actual)) {
            problems.add(what + ": expected " + expected + ", got " + actual);
        }
    }

    /** Panes added and retractions subtracted, per window; windows that net to nothing left out. */
    private static Map<String, Long> net(List<Emitted> run) {
        Map<String, Long> sums = new TreeMap<>();
        Map<String, Integer> live = new HashMap<>();
        for (Emitted e : run) {
            int sign = e.pane().isRetraction() ? -1 : 1;
            sums.merge(e.window(), sign * e.value(), Long::sum);
            live.merge(e.window(), sign, Integer::sum);
        }
        sums.keySet().removeIf(w -> live.get(w) == 0);
        return sums;
    }

    private static Map<String, Long> sum(List<Emitted> run) {
        Map<String, Long> sums = new TreeMap<>();
        run.forEach(e -> sums.merge(e.window(), e.value(), Long::sum));
        return sums;
    }

    private static Map<String, Long> perKey(Map<String, Long> byWindow) {
        Map<String, Long> sums = new TreeMap<>();
        byWindow.forEach((window, value) -> sums.merge(window.substring(0, window.indexOf('@')), value, Long::sum));
        return sums;
    }

    /** Per window, panes (not retractions) have indexes 0, 1, 2, ... and no EARLY pane follows another timing. */
    private static List<String> orderViolations(List<Emitted> run) {
        List<String> violations = new ArrayList<>();
        Map<String, List<Emitted>> byWindow = new LinkedHashMap<>();
        run.stream()
                .filter(e -> !e.pane().isRetraction())
                .forEach(e -> byWindow.computeIfAbsent(e.window(), w -> new ArrayList<>())
                        .add(e));
        byWindow.forEach((window, panes) -> {
            for (int i = 0; i < panes.size(); i++) {
                PaneInfo pane = panes.get(i).pane();
                if (pane.index() != i) {
                    violations.add(window + ": pane " + i + " has index " + pane.index());
                }
                if (i > 0
                        && pane.timing() == PaneInfo.Timing.EARLY
                        && panes.get(i - 1).pane().timing() != PaneInfo.Timing.EARLY) {
                    violations.add(window + ": an EARLY pane after a "
                            + panes.get(i - 1).pane().timing() + " one");
                }
            }
        });
        return violations;
    }

    /** Each retraction takes back exactly the window's previous pane, and only a final retraction ends a window. */
    private static List<String> retractionViolations(List<Emitted> run) {
        List<String> violations = new ArrayList<>();
        Map<String, Long> lastPane = new HashMap<>();
        Map<String, Boolean> retracted = new HashMap<>();
        for (Emitted e : run) {
            if (e.pane().isRetraction()) {
                Long previous = lastPane.get(e.window());
                if (previous == null || previous != e.value()) {
                    violations.add(e + ": retracts " + e.value() + " but the previous pane held " + previous);
                }
                retracted.put(e.window(), true);
            } else {
                if (lastPane.containsKey(e.window()) && !retracted.getOrDefault(e.window(), false)) {
                    violations.add(e + ": a new pane without a retraction of the previous one");
                }
                lastPane.put(e.window(), e.value());
                retracted.put(e.window(), false);
            }
        }
        return violations;
    }

    /** What the table view of a run gives: its changes applied as upserts, and its rows summed per key. */
    record TableView(Map<String, Long> rows, Map<String, Long> sumsPerKey) {}

    /** One run's panes, and unless its panes are deltas, its table view. */
    record Output(
            Refinement refinement,
            List<Emitted> panes,
            @Nullable TableView view) {}

    private static Output run(
            Scenario scenario, GeneratedStream stream, Trigger trigger, Refinement refinement, boolean asTable) {
        return WeirRun.run(
                scenario,
                stream,
                windowed -> windowed.withTrigger(trigger).withRefinement(refinement),
                asTable,
                driver -> new Output(
                        refinement,
                        driver.output(WeirRun.RESULTS_TOPIC, WindowedSerdes.string(), Serdes.Long()).readAll().stream()
                                .map(RefinementPropertyTest::emitted)
                                .toList(),
                        asTable ? tableView(driver) : null));
    }

    private static TableView tableView(TestDriver driver) {
        Map<String, Long> rows = new TreeMap<>();
        for (OutputRecord<Windowed<String>, Long> r : driver.output(
                        WeirRun.ROWS_TOPIC, WindowedSerdes.string(), Serdes.Long())
                .readAll()) {
            String window = r.key().key() + "@[" + r.key().window().start() + ","
                    + r.key().window().end() + ")";
            if (r.value() == null) {
                rows.remove(window);
            } else {
                rows.put(window, r.value());
            }
        }
        return new TableView(rows, new TreeMap<>(driver.<String, Long>table(WeirRun.KEY_SUMS)));
    }

    private static Emitted emitted(OutputRecord<Windowed<String>, Long> r) {
        return new Emitted(
                r.key().key(),
                r.key().window().start(),
                r.key().window().end(),
                r.value(),
                r.pane().orElseThrow(() -> new AssertionError("no pane headers on " + r)));
    }
}
