package io.weir.streams.errors;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * What an error handler ({@link RecordErrorHandler}, {@link ProductionErrorHandler}) decided for one
 * record: {@link #FAIL}, {@link #CONTINUE}, or {@link #deadLetter(String) dead-letter it to a topic}.
 * Whatever the decision, the record is never lost silently: a skip or a dead letter is counted and
 * logged at WARN with the record's coordinates (never its payload). Immutable.
 *
 * <p>A dead letter is written through the task's output, like any other output of the task: under
 * exactly-once it commits in the same transaction as the task's other outputs and its input offsets
 * (never lost, never duplicated); under at-least-once it is flushed before the input offsets are
 * committed (never lost; repeated if the input is reprocessed after a crash). Its shape is described by
 * {@link DeadLetterRecord}.
 */
public final class ErrorDecision {

    /** What happens to the record. */
    public enum Action {
        /** The stream thread fails with the error; nothing after the record's last commit is kept. */
        FAIL,
        /** The record is counted as skipped, logged, and processing goes on with the next one. */
        CONTINUE,
        /** The record goes to {@link #deadLetterTopic()}, is counted and logged, and processing goes on. */
        DEAD_LETTER
    }

    /** Stop with an error naming the record's coordinates. */
    public static final ErrorDecision FAIL = new ErrorDecision(Action.FAIL, null);
    /** Skip the record: count it, log it at WARN, go on. */
    public static final ErrorDecision CONTINUE = new ErrorDecision(Action.CONTINUE, null);

    private final Action action;
    private final @Nullable String deadLetterTopic;

    private ErrorDecision(Action action, @Nullable String deadLetterTopic) {
        this.action = action;
        this.deadLetterTopic = deadLetterTopic;
    }

    /**
     * Write the record to {@code topic} with headers describing the failure, then go on.
     *
     * @param topic the dead-letter topic; it must exist (Weir does not create it)
     * @return a dead-letter decision for that topic
     */
    public static ErrorDecision deadLetter(String topic) {
        return new ErrorDecision(Action.DEAD_LETTER, Require.name("deadLetterTopic", topic));
    }

    /**
     * What happens to the record.
     *
     * @return {@link Action#FAIL}, {@link Action#CONTINUE} or {@link Action#DEAD_LETTER}
     */
    public Action action() {
        return action;
    }

    /**
     * The dead-letter topic; present exactly when the action is {@link Action#DEAD_LETTER}.
     *
     * @return the topic of a dead-letter decision, else empty
     */
    public Optional<String> deadLetterTopic() {
        return Optional.ofNullable(deadLetterTopic);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ErrorDecision d && d.action == action && Objects.equals(d.deadLetterTopic, deadLetterTopic);
    }

    @Override
    public int hashCode() {
        return Objects.hash(action, deadLetterTopic);
    }

    @Override
    public String toString() {
        return action == Action.DEAD_LETTER ? "DEAD_LETTER(" + deadLetterTopic + ")" : action.name();
    }
}
