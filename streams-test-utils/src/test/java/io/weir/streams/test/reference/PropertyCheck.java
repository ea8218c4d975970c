package io.weir.streams.test.reference;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.time.Window;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Runs Weir and the {@link ReferenceModel} on the same stream and lists every way they differ, plus
 * every violation of the per-window invariants by Weir's own output; shrinks failing streams for the
 * report.
 */
final class PropertyCheck {

    private PropertyCheck() {}

    /**
     * What the model expected from one stream, how many sessions it sealed, and every problem found
     * with what Weir did (none if they agree).
     */
    record Verdict(Outcome expected, long sessionsSealed, long sealedSessionsJoined, List<String> problems) {}

    /** Runs both on {@code stream}: every difference between them, and every invariant Weir's output breaks. */
    static Verdict check(Scenario scenario, GeneratedStream stream) {
        ReferenceModel model = ReferenceModel.run(scenario, stream);
        Outcome expected = model.outcome();
        Outcome actual;
        try {
            actual = WeirRun.run(scenario, stream);
        } catch (RuntimeException e) {
            return new Verdict(
                    expected, model.sessionsSealed(), model.sealedSessionsJoined(), List.of("Weir failed: " + e));
        }
        List<String> problems = new ArrayList<>();
        problems.addAll(multisetDifference("pane", expected.panes(), actual.panes()));
        problems.addAll(multisetDifference("side-output record", expected.refused(), actual.refused()));
        if (!expected.counters().equals(actual.counters())) {
            problems.add("counters: expected " + expected.counters() + ", Weir reported " + actual.counters());
        }
        problems.addAll(invariantViolations(scenario, model, actual.panes()));
        return new Verdict(expected, model.sessionsSealed(), model.sealedSessionsJoined(), problems);
    }

    /**
     * Per window of Weir's output: pane indexes are 0, 1, 2, ...; only the first pane may be ON_TIME;
     * only the last may be final; and the last pane holds the aggregate of exactly the records the
     * model says it must (see {@link ReferenceModel#valuesOf}).
     */
    static List<String> invariantViolations(Scenario scenario, ReferenceModel model, List<Pane> panes) {
        Map<String, List<Pane>> byWindow = panes.stream()
                .collect(Collectors.groupingBy(
                        p -> p.key() + "@[" + p.start() + "," + p.end() + ")", TreeMap::new, Collectors.toList()));
        List<String> violations = new ArrayList<>();
        byWindow.forEach((name, windowPanes) -> {
            List<Pane> ordered = windowPanes.stream()
                    .sorted(Comparator.comparingLong(Pane::index))
                    .toList();
            for (int i = 0; i < ordered.size(); i++) {
                Pane pane = ordered.get(i);
                if (pane.index() != i) {
                    violations.add(name + ": pane indexes are not 0.." + (ordered.size() - 1) + ": " + ordered);
                    return;
                }
                if (i > 0 && pane.timing() == PaneInfo.Timing.ON_TIME) {
                    violations.add(name + ": an ON_TIME pane that is not the window's first: " + ordered);
                }
                if (i < ordered.size() - 1 && pane.isFinal()) {
                    violations.add(name + ": a final pane followed by another: " + ordered);
                }
            }
            Pane last = ordered.get(ordered.size() - 1);
            List<Long> values = model.valuesOf(last.key(), new Window(last.start(), last.end()));
            long truth = scenario.aggregate().of(values);
            if (last.value() != truth) {
                violations.add(
                        name + ": last pane " + last + " but the window's " + values.size() + " records make " + truth);
            }
        });
        return violations;
    }

    /**
     * A shorter stream on which {@link #check} still finds a problem: removes chunks of steps,
     * from half the stream down to single steps, for as long as the run keeps failing.
     */
    static GeneratedStream shrink(Scenario scenario, GeneratedStream failing) {
        GeneratedStream smallest = failing;
        for (int chunk = Math.max(1, failing.steps().size() / 2); chunk >= 1; chunk /= 2) {
            boolean removedAny = true;
            while (removedAny) {
                removedAny = false;
                for (int from = 0; from < smallest.steps().size(); from += chunk) {
                    List<StreamStep> fewer = new ArrayList<>(smallest.steps());
                    fewer.subList(from, Math.min(from + chunk, fewer.size())).clear();
                    GeneratedStream candidate = smallest.withSteps(fewer);
                    if (!check(scenario, candidate).problems().isEmpty()) {
                        smallest = candidate;
                        removedAny = true;
                    }
                }
            }
        }
        return smallest;
    }

    /** The failure message: scenario, seed, the shrunk stream with the model's watermarks, the problems and panes. */
    static String report(Scenario scenario, long seed, GeneratedStream failing) {
        GeneratedStream minimal = shrink(scenario, failing);
        ReferenceModel model = ReferenceModel.run(scenario, minimal);
        StringBuilder out = new StringBuilder("Weir disagrees with the reference model\n")
                .append("scenario: ")
                .append(scenario)
                .append('\n')
                .append("seed: ")
                .append(seed)
                .append(" (run it alone with -D")
                .append(WindowedAggregationPropertyTest.SEED_PROPERTY)
                .append('=')
                .append(seed)
                .append(")\n")
                .append("smallest failing stream found (from ")
                .append(failing.steps().size())
                .append(" steps); W is the watermark the model judged each record against:\n")
                .append(minimal.describe(watermarkNotes(minimal, model)))
                .append("problems:\n");
        check(scenario, minimal)
                .problems()
                .forEach(p -> out.append("  ").append(p).append('\n'));
        out.append("panes of the model:\n");
        model.outcome().panes().forEach(p -> out.append("  ").append(p).append('\n'));
        out.append("panes of Weir:\n");
        try {
            WeirRun.run(scenario, minimal)
                    .panes()
                    .forEach(p -> out.append("  ").append(p).append('\n'));
        } catch (RuntimeException e) {
            out.append("  none: it failed with ").append(e).append('\n');
        }
        return out.toString();
    }

    /** Per step of {@code stream}: for a record, the watermark the model judged it against. */
    private static List<String> watermarkNotes(GeneratedStream stream, ReferenceModel model) {
        Iterator<ReferenceModel.JudgedRecord> judged = model.judgedRecords().iterator();
        List<String> notes = new ArrayList<>();
        for (StreamStep step : stream.steps()) {
            if (step instanceof StreamStep.Arrival) {
                ReferenceModel.JudgedRecord j = judged.next();
                notes.add("W=" + time(j.watermark()) + (j.future() ? ", future" : ""));
            } else {
                notes.add("");
            }
        }
        return notes;
    }

    private static String time(long millis) {
        return millis == Long.MIN_VALUE ? "-inf" : millis == Long.MAX_VALUE ? "+inf" : Long.toString(millis);
    }

    private static <T> List<String> multisetDifference(String what, List<T> expected, List<T> actual) {
        Map<T, Integer> balance = new HashMap<>();
        expected.forEach(e -> balance.merge(e, 1, Integer::sum));
        actual.forEach(a -> balance.merge(a, -1, Integer::sum));
        List<String> differences = new ArrayList<>();
        expected.stream()
                .distinct()
                .filter(e -> balance.get(e) > 0)
                .forEach(e -> differences.add("missing " + what + " (" + balance.get(e) + "x): " + e));
        actual.stream()
                .distinct()
                .filter(a -> balance.get(a) < 0)
                .forEach(a -> differences.add("unexpected " + what + " (" + -balance.get(a) + "x): " + a));
        return differences;
    }
}
