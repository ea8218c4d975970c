package io.weir.benchmarks.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a step of a long benchmark (a pre-load, a timed run) again once when it fails, so that one
 * transient of the broker (a partition leader moving, a producer fenced, a run timing out on a busy
 * machine) does not end an hour of measuring. The retry runs under fresh names (the attempt number
 * is passed in), is logged, and is listed in the report under the table ({@link #report()}), so a
 * reader sees which figures come from a second attempt; a second failure ends the benchmark, and so
 * does a {@link WrongOutput} at once: a run that is wrong is never given another chance.
 *
 * <p>Single-threaded: used by the benchmark's main thread.
 */
final class RetryOnce {

    /** One step, given its attempt: 1, then 2 when retried. */
    @FunctionalInterface
    interface Step<T> {
        T run(int attempt) throws Exception;
    }

    private static final Logger log = LoggerFactory.getLogger(RetryOnce.class);

    private final List<String> retried = new ArrayList<>();

    /**
     * The step's result, from its first attempt or, if that failed, its second.
     *
     * @throws Exception the second attempt's failure, with the first's suppressed in it
     */
    <T> T run(String step, Step<T> body) throws Exception {
        try {
            return body.run(1);
        } catch (InterruptedException | WrongOutput e) {
            throw e;
        } catch (Exception first) {
            log.warn("{} failed; retrying it once", step, first);
            retried.add(step + ": " + first);
            try {
                return body.run(2);
            } catch (Exception second) {
                second.addSuppressed(first);
                throw second;
            }
        }
    }

    /** The steps run twice, one line each, or empty when none was. */
    String report() {
        if (retried.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder("Retried once after a failure (the figures are the retry's):\n");
        retried.forEach(r -> text.append("- ").append(r).append('\n'));
        return text.toString();
    }
}
