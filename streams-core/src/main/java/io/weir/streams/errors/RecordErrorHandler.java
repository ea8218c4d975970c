package io.weir.streams.errors;

/**
 * Decides what happens to an input record that cannot be read: its key or value does not
 * deserialize, or its event time is invalid (negative, or the timestamp extractor failed). Set per
 * source with {@code Consumed.withErrorHandler}; the default is {@link #fail()}.
 *
 * <p>A handler may decide per record, e.g. dead-letter what does not deserialize and skip what has no
 * valid event time:
 * <pre>{@code
 * error -> error.reason() == RecordError.Reason.INVALID_EVENT_TIME
 *         ? ErrorDecision.CONTINUE : ErrorDecision.deadLetter("payments-dlq")
 * }</pre>
 *
 * <p>Counted per source node: {@code records-skipped} for {@link ErrorDecision#CONTINUE},
 * {@code records-dead-lettered} for a dead letter. The input offset of a skipped or dead-lettered record
 * is committed like any other. A handler that throws fails the stream thread.
 */
@FunctionalInterface
public interface RecordErrorHandler {

    /**
     * Decides what happens to a record that could not be read.
     *
     * @param error the failure, whose message names the record's coordinates
     * @return what to do with the record; never null
     */
    ErrorDecision handle(RecordError error);

    /**
     * Fail on the first unreadable record (the default).
     *
     * @return a handler that always decides {@link ErrorDecision#FAIL}
     */
    static RecordErrorHandler fail() {
        return error -> ErrorDecision.FAIL;
    }

    /**
     * Count, log at WARN with the record's coordinates, and continue.
     *
     * @return a handler that always decides {@link ErrorDecision#CONTINUE}
     */
    static RecordErrorHandler logAndContinue() {
        return error -> ErrorDecision.CONTINUE;
    }

    /**
     * Write every unreadable record to {@code topic}, as consumed (key, value and headers untouched),
     * with headers describing the failure ({@link DeadLetterRecord}); count it, log it, continue.
     *
     * @param topic the dead-letter topic; it must exist (Weir does not create it)
     * @return a handler that dead-letters every unreadable record there
     */
    static RecordErrorHandler deadLetterTo(String topic) {
        ErrorDecision decision = ErrorDecision.deadLetter(topic);
        return error -> decision;
    }
}
