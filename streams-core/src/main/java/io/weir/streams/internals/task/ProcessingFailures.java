package io.weir.streams.internals.task;

import io.weir.streams.WeirMetrics;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.DerivedRecordError;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.RecordError;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ErrorOutcome;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.state.StoreException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.jspecify.annotations.Nullable;

/**
 * One operator's handling of exceptions its own code threw while processing a record or a timer: the
 * runtime's failures and failures forwarded from downstream pass through; anything else is user code
 * and goes to the topology's {@link ProcessingErrorHandler} (see {@link ProcessingError} for the
 * rule). Single-threaded, like the task.
 */
final class ProcessingFailures {

    private final String operator;
    private final ProcessingErrorHandler handler;
    private final RecordCollector collector;
    private final TaskMetrics metrics;
    private final Runnable onInputRefused;
    // Created on the first failure, so an operator that never fails reports no error counters.
    private @Nullable ErrorOutcome outcome;

    ProcessingFailures(
            String operator,
            ProcessingErrorHandler handler,
            RecordCollector collector,
            TaskMetrics metrics,
            Runnable onInputRefused) {
        this.operator = operator;
        this.onInputRefused = onInputRefused;
        this.handler = handler;
        this.collector = collector;
        this.metrics = metrics;
    }

    /**
     * Handles {@code e}, thrown by this operator while it processed a record deriving from {@code
     * source} (null for a window result or a timer).
     *
     * @param timestamp the dead letter's timestamp when there is no source record (the processing time)
     * @throws RuntimeException {@code e} itself when it is not user code's, or the {@link ProcessingError}
     *     when the handler decided to fail
     */
    void failed(RuntimeException e, @Nullable SourceInfo source, long timestamp) {
        if (!isUserCode(e)) {
            throw e;
        }
        ProcessingError error = source == null
                ? new ProcessingError(operator, null, -1, -1, e)
                : new ProcessingError(operator, source.topic(), source.partition(), source.offset(), e);
        if (outcome == null) {
            outcome = new ErrorOutcome(
                    operator, collector, metrics, WeirMetrics.RECORDS_PROCESSING_SKIPPED, onInputRefused);
        }
        outcome.apply(
                handler.handle(error),
                error,
                DeadLetterRecord.PROCESSING_REASON,
                null,
                source,
                source == null ? timestamp : source.kafkaTimestamp());
    }

    private static boolean isUserCode(RuntimeException e) {
        if (e instanceof ForwardedFailure
                || e instanceof DerivedRecordError
                || e instanceof RecordError
                || e instanceof StoreException) {
            return false;
        }
        return !(e instanceof KafkaException) || e instanceof SerializationException;
    }
}
