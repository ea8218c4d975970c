package io.weir.streams.test.reference;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A remote service for the asynchronous operators' property tests: it records each call and answers it
 * only when the test says, in a random order. The answer is the value in upper case, or, when it fails some
 * and the value is one that {@link #fails}, a failure. It also bounds how many records the operator holds,
 * so that a test can keep it below its capacity. Single-threaded: the test answers on its own thread.
 */
final class ScriptedService {

    private record Call(String key, String value, CompletableFuture<String> answer) {}

    private final List<Call> calls = new ArrayList<>();

    /** The last call made for each value (values are unique in these tests' inputs). */
    private final Map<String, Call> latest = new HashMap<>();

    private final boolean failSome;

    /** @param failSome whether the calls for values that {@link #fails} fail */
    ScriptedService(boolean failSome) {
        this.failSome = failSome;
    }

    /** Whether the call for {@code value} fails: the same for every attempt and in the synchronous reference. */
    static boolean fails(String value) {
        return value.hashCode() % 7 == 0;
    }

    /** The answer for {@code value}, as the synchronous reference computes it. */
    static String answerFor(String value) {
        return value.toUpperCase(Locale.ROOT);
    }

    CompletionStage<String> call(String key, String value) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        Call call = new Call(key, value, answer);
        calls.add(call);
        latest.put(value, call);
        return answer;
    }

    /**
     * At least as many records as the operator holds once it has taken in the answers given so far: every
     * record piped ({@code piped}, values in order) from the first one whose last call is unanswered, or that
     * has no call yet (it waits for its key), on. A record before that one has been answered, and so have all
     * records before it, so it has left, whatever the order rules.
     */
    int held(List<String> piped) {
        for (int i = 0; i < piped.size(); i++) {
            Call call = latest.get(piped.get(i));
            if (call == null || !call.answer().isDone()) {
                return piped.size() - i;
            }
        }
        return 0;
    }

    private List<Call> open() {
        return calls.stream().filter(c -> !c.answer().isDone()).toList();
    }

    /** Answers each open call with probability {@code p}, in a random order. */
    void answerSome(Random random, double p) {
        List<Call> open = new ArrayList<>(open());
        Collections.shuffle(open, random);
        open.stream().filter(c -> random.nextDouble() < p).forEach(this::answer);
    }

    /** Answers one open call at random. */
    void answerOne(Random random) {
        List<Call> open = open();
        answer(open.get(random.nextInt(open.size())));
    }

    private void answer(Call c) {
        if (failSome && fails(c.value())) {
            c.answer().completeExceptionally(new IllegalStateException("no answer for this one"));
        } else {
            c.answer().complete(answerFor(c.value()));
        }
    }

    /** A crash: the calls made so far are abandoned by the operator, which calls again. */
    void abandonAll() {
        calls.clear();
    }
}
