package io.weir.benchmarks.runtime;

import io.weir.benchmarks.OutputTally;
import io.weir.benchmarks.OutputTally.WindowKey;

import java.util.Map;

/**
 * Whether an app's output says what its input does. An app that writes updates must end with the
 * input's count for every (key, window); an app that writes once per window must write each window
 * at most once, with the input's count (windows still open at the end of the input are not written).
 *
 * @param windows the (key, window) pairs the output holds
 * @param wrong   how many of them are missing, counted wrong, or written more than once
 */
record OutputCheck(long records, long windows, long wrong) {

    static OutputCheck of(AppKind kind, OutputTally output, Map<WindowKey, Long> expected) {
        Map<WindowKey, Long> latest = output.latestCounts();
        long wrong = latest.entrySet().stream()
                .filter(e -> !e.getValue().equals(expected.get(e.getKey())))
                .count();
        if (kind.oncePerWindow()) {
            wrong += output.results() - latest.size();
        } else {
            wrong += expected.keySet().stream()
                    .filter(w -> !latest.containsKey(w))
                    .count();
        }
        return new OutputCheck(output.results(), latest.size(), wrong);
    }

    boolean exact() {
        return wrong == 0;
    }

    @Override
    public String toString() {
        return exact() ? "exact" : wrong + " wrong";
    }
}
