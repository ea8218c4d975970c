package io.weir.streams.errors;

import io.weir.streams.internals.Redaction;
import org.jspecify.annotations.Nullable;

/**
 * An exception thrown by user code while an operator processed a record: a mapper, predicate, key
 * selector, aggregator, merger, topic-name extractor, partitioner or {@code foreach} action, or a keyed
 * processor's {@code process} or {@code onTimer}. The message names the operator, the coordinates of
 * the input record the failing record derives from (never its payload) and the cause; {@link
 * #getCause()} is the exception user code threw.
 *
 * <p>What counts as user code: any exception an operator throws while handling one record or one
 * timer, except the runtime's own failures, which always fail the stream thread because skipping
 * them could lose or corrupt state: a store failure, a Kafka client failure (a fenced producer, an
 * aborted transaction, a timeout; a {@code SerializationException} thrown by user code is user code),
 * and the errors the source and sink handlers already decided ({@link RecordError}, {@link
 * ProductionError}). An exception thrown further downstream is decided by the operator that threw it,
 * not by its upstream operators.
 */
public final class ProcessingError extends DerivedRecordError {

    /** The name of the operator whose user code threw. */
    private final String operator;

    /**
     * An error for user code of {@code operator} that threw {@code cause}; the message names the operator,
     * the input record's coordinates and the cause.
     *
     * @param operator the name of the operator whose user code threw
     * @param sourceTopic the topic of the input record the failing record derives from, or null when it
     *                    derives from a window result or a timer
     * @param sourcePartition that input record's partition, or -1 when there is none
     * @param sourceOffset that input record's offset, or -1 when there is none
     * @param cause the exception user code threw
     */
    public ProcessingError(
            String operator, @Nullable String sourceTopic, int sourcePartition, long sourceOffset, Throwable cause) {
        super(
                "Operator '" + operator + "' failed on the record derived from "
                        + coordinates(sourceTopic, sourcePartition, sourceOffset, "a window result or timer") + ": "
                        + Redaction.describe(cause),
                sourceTopic,
                sourcePartition,
                sourceOffset,
                cause);
        this.operator = operator;
    }

    /**
     * The name of the operator whose user code threw (its {@code Named} name, or the generated one).
     *
     * @return the operator's name
     */
    public String operator() {
        return operator;
    }
}
