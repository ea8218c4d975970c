package io.weir.streams.test.reference;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A remote service for the asynchronous operators' property tests: it records each call and answers it
 * only when the test says, in a random order. The answer is the value in upper case, or, when it fails some
 * and the value is one that {@link #fails}, a failure. It also bounds how many records the operator holds, so that a test can keep it below
 * its capacity. Single-threaded: the test answers on its own thread.
 */
final class ScriptedService {

    private record Call(String key, String value, CompletableFuture<String> answer) {}

    private final List<Call> calls = new ArrayList<>();

    /** Whether the operator keeps watermark advances in their place, so a result waits for every earlier one. */
    private final boolean barriers;

    private final boolean failSome;

    /**
     * @param barriers whether the operator's results also wait behind the watermark advances queued between
     *     records ({@code processAsync}): then a record is counted as held while any earlier call is open
     * @param failSome whether the calls for values that {@link #fails} fail
     */
    ScriptedService(boolean barriers, boolean failSome) {
        this.barriers = barriers;
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
        calls.add(new Call(key, value, answer));
        return answer;
    }

    /**
     * At least as many records as the operator holds once it has taken in the answers given so far: a call
     * is held while it, or an earlier call of its key (or, with barriers, any earlier call), is open.
     */
    int held() {
        Set<String> waiting = new HashSet<>();
        boolean anyOpen = false;
        int held = 0;
        for (Call c : calls) {
            boolean open = !c.answer().isDone();
            if (open || waiting.contains(c.key()) || (barriers && anyOpen)) {
                waiting.add(c.key());
                held++;
            }
            anyOpen |= open;
        }
        return held;
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
