package io.weir.streams;

/**
 * Decides what happens to an input record that cannot be read: its key or value does not
 * deserialize, or its event time is invalid (negative). Whatever the decision, the record is never
 * skipped silently: every skip is counted ({@code records-skipped} in the task's metrics) and logged
 * with the record's coordinates (never its payload).
 */
@FunctionalInterface
public interface RecordErrorHandler {

    /** What to do with a record that could not be read. */
    enum Decision {
        /** Stop processing with an error naming the record's topic, partition and offset. */
        FAIL,
        /** Count and log the record, then go on with the next one. */
        CONTINUE
    }

    /**
     * @param error the failure, whose message names the record's coordinates
     */
    Decision handle(RecordError error);

    /** Fail on the first unreadable record (the default). */
    static RecordErrorHandler fail() {
        return error -> Decision.FAIL;
    }

    /** Count, log at WARN with the record's coordinates, and continue. */
    static RecordErrorHandler logAndContinue() {
        return error -> Decision.CONTINUE;
    }
}
