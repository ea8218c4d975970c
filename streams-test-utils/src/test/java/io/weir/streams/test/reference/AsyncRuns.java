package io.weir.streams.test.reference;

import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The runs of the asynchronous operators' property tests: a generated out-of-order stream, and the piping of
 * it into a topology whose calls a {@link ScriptedService} answers at random.
 */
final class AsyncRuns {

    /** A record of a generated stream: its value is unique, so it names the record. */
    record In(String key, String value, long time) {}

    private AsyncRuns() {}

    /** 10 to 59 records of 4 keys, 7 ms apart, a quarter of them up to 120 ms out of order. */
    static List<In> generate(Random random) {
        int n = 10 + random.nextInt(50);
        List<In> input = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long time = 1_000 + i * 7L - (random.nextInt(4) == 0 ? random.nextInt(120) : 0);
            input.add(new In("k" + random.nextInt(4), "v" + i, time));
        }
        return input;
    }

    /**
     * Pipes {@code input} into {@code in}. With {@code answers} (the asynchronous run), after each record the
     * service answers some open calls in a random order, processing time moves a millisecond so the operator
     * takes them in, a commit comes now and then, and a third of the runs crash once; before a record that
     * the operator might not have room for, calls are answered until it has. Then every call is answered.
     *
     * @return whether the run crashed
     */
    static boolean pipe(
            TestDriver driver,
            TestInputTopic<String, String> in,
            List<In> input,
            ScriptedService service,
            @Nullable Random answers,
            int capacity) {
        boolean mayCrash = answers != null && answers.nextInt(3) == 0;
        boolean crashed = false;
        List<String> piped = new ArrayList<>();
        int heldAtCommit = 0;
        int sinceCommit = 0;
        for (In record : input) {
            while (answers != null && service.held(piped) >= capacity) {
                service.answerOne(answers);
                driver.advanceTime(Duration.ofMillis(1));
            }
            in.pipe(TestRecord.of(record.key(), record.value()).at(record.time()));
            piped.add(record.value());
            sinceCommit++;
            if (answers == null) {
                continue;
            }
            service.answerSome(answers, 0.3);
            driver.advanceTime(Duration.ofMillis(1));
            if (answers.nextInt(4) == 0) {
                driver.commit();
                heldAtCommit = service.held(piped);
                sinceCommit = 0;
            }
            // A crash replays the input since the commit into the operator, which must not fill up
            // meanwhile: nobody answers during the replay.
            if (mayCrash && !crashed && heldAtCommit + sinceCommit < capacity && answers.nextInt(8) == 0) {
                service.abandonAll();
                driver.crash();
                crashed = true;
            }
        }
        while (answers != null && service.held(piped) > 0) {
            service.answerSome(answers, 0.5);
            driver.advanceTime(Duration.ofMillis(1));
        }
        return crashed;
    }

    /** Results written as {@code key=value}, by key, each key's in order. */
    static Map<String, List<String>> byKey(List<String> results) {
        Map<String, List<String>> byKey = new TreeMap<>();
        for (String r : results) {
            int eq = r.indexOf('=');
            byKey.computeIfAbsent(r.substring(0, eq), k -> new ArrayList<>()).add(r.substring(eq + 1));
        }
        return byKey;
    }
}
