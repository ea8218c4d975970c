package io.weir.streams.errors;

/**
 * Decides what happens to a record whose processing threw in user code (see {@link ProcessingError}
 * for which exceptions are offered). Set once per topology with {@code
 * StreamsBuilder.setProcessingErrorHandler}; the default is {@link #fail()}.
 *
 * <ul>
 *   <li>{@link ErrorDecision#FAIL}: the stream thread fails with the {@link ProcessingError}; under
 *       exactly-once nothing since the last commit is visible. A replaced thread ({@code REPLACE_THREAD})
 *       meets the record again; if it fails on the same record a second time, the instance is not
 *       replaced again but fails, naming the record (a poison record never loops).</li>
 *   <li>{@link ErrorDecision#CONTINUE}: the record goes no further from the operator that failed;
 *       counted as {@code records-processing-skipped} on that operator and logged at WARN.</li>
 *   <li>{@link ErrorDecision#deadLetter}: the input record the failing record derives from is written
 *       to the topic as consumed (key, value and headers), with the headers of {@link DeadLetterRecord}
 *       (reason {@code PROCESSING} and the operator); counted as {@code records-dead-lettered}.</li>
 * </ul>
 *
 * <p>Under exactly-once a skipped or dead-lettered record's input offset commits in the same transaction
 * as the dead letter and the task's other outputs: it is never processed again and never lost. What
 * the record did before the failure stays: output already sent on other branches, and the windows of
 * a hopping window an aggregation updated before its aggregator threw on the next one.
 * A handler that throws fails the stream thread.
 */
@FunctionalInterface
public interface ProcessingErrorHandler {

    /**
     * Decides what happens to a record whose processing failed.
     *
     * @param error the failure, naming the operator and the input record's coordinates
     * @return what to do with the record; never null
     */
    ErrorDecision handle(ProcessingError error);

    /**
     * Fail the stream thread (the default).
     *
     * @return a handler that always decides {@link ErrorDecision#FAIL}
     */
    static ProcessingErrorHandler fail() {
        return error -> ErrorDecision.FAIL;
    }

    /**
     * Count, log at WARN with the operator and the record's coordinates, and continue.
     *
     * @return a handler that always decides {@link ErrorDecision#CONTINUE}
     */
    static ProcessingErrorHandler logAndContinue() {
        return error -> ErrorDecision.CONTINUE;
    }

    /**
     * Write every record whose processing failed to {@code topic}, as consumed, with failure headers.
     *
     * @param topic the dead-letter topic; it must exist (Weir does not create it)
     * @return a handler that dead-letters every record whose processing failed there
     */
    static ProcessingErrorHandler deadLetterTo(String topic) {
        ErrorDecision decision = ErrorDecision.deadLetter(topic);
        return error -> decision;
    }
}
