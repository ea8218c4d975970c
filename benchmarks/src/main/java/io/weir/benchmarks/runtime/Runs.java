package io.weir.benchmarks.runtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The repeated timed runs of one measurement of one engine ({@code --repeats}): the table shows the
 * median run (the lower of the two middle ones for an even count), and the rate of every run, so the
 * spread on a noisy machine is visible.
 */
record Runs<R>(R median, List<R> all, List<Double> rates) {

    static <R> Runs<R> of(List<R> runs, ToDoubleFunction<R> rate) {
        List<R> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(rate));
        return new Runs<>(
                sorted.get((sorted.size() - 1) / 2),
                List.copyOf(runs),
                runs.stream().map(rate::applyAsDouble).toList());
    }

    /** The rate of each run in the order run, e.g. {@code 125,823 / 133,503 / 141,908}. */
    String ratesText() {
        return rates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).collect(Collectors.joining(" / "));
    }
}
