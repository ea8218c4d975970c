package io.weir.streams.internals.processor;

import io.weir.streams.WeirMetrics;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an error handler's decision for one record of a processor node (a source that could not
 * read it, a sink that could not produce it): throw the error, or count and log a skip, or write a
 * dead letter through the task's collector (so under exactly-once it is in the task's transaction),
 * count and log it. Logs name coordinates only, never payloads. Single-threaded.
 */
public final class ErrorOutcome {

    private static final Logger log = LoggerFactory.getLogger(ErrorOutcome.class);

    private final String node;
    private final RecordCollector collector;
    private final Counter skipped;
    private final Counter deadLettered;
    private final Counter lettersDropped;
    private final Runnable onInputRefused;

    /**
     * @param skippedMetric  the metric that counts this node's skips
     * @param onInputRefused told when a record deriving from an input record is skipped or dead-lettered:
     *                       the task then does not let that input record advance its watermark
     */
    public ErrorOutcome(
            String node,
            RecordCollector collector,
            TaskMetrics metrics,
            String skippedMetric,
            Runnable onInputRefused) {
        this.node = node;
        this.collector = collector;
        this.onInputRefused = onInputRefused;
        this.skipped = metrics.counter(node, skippedMetric);
        this.deadLettered = metrics.counter(node, WeirMetrics.RECORDS_DEAD_LETTERED);
        this.lettersDropped = metrics.counter(node, WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED);
    }

    /**
     * Carries out {@code decision} for one failed record.
     *
     * @param error     the failure (its message names the record's coordinates, not its payload)
     * @param reason    the failure's reason (an enum constant's name), for the dead letter's headers
     * @param sinkTopic the topic the record could not be produced to, or null for a read failure
     * @param source    the input record, or null when the record derives from a window result
     * @param timestamp the dead letter's timestamp
     * @throws RuntimeException {@code error} when the decision is to fail
     */
    public void apply(
            ErrorDecision decision,
            RuntimeException error,
            String reason,
            @Nullable String sinkTopic,
            @Nullable SourceInfo source,
            long timestamp) {
        if (decision == null) {
            throw new IllegalStateException(
                    "The error handler of node " + node + " returned no decision for: " + error.getMessage(), error);
        }
        switch (decision.action()) {
            case FAIL -> throw error;
            case CONTINUE -> {
                refused(source);
                skipped.increment();
                log.warn("Skipped a record at node {}: {}", node, error.getMessage());
            }
            case DEAD_LETTER -> {
                refused(source);
                Throwable cause = error.getCause() != null ? error.getCause() : error;
                DivertedRecord letter = new DivertedRecord(source)
                        .header(DeadLetterRecord.REASON_HEADER, reason)
                        .header(DeadLetterRecord.OPERATOR_HEADER, node)
                        .header(
                                DeadLetterRecord.EXCEPTION_HEADER,
                                cause.getClass().getName())
                        .header(DeadLetterRecord.MESSAGE_HEADER, String.valueOf(error.getMessage()));
                if (sinkTopic != null) {
                    letter.header(DeadLetterRecord.SINK_TOPIC_HEADER, sinkTopic);
                }
                String topic = decision.deadLetterTopic().orElseThrow();
                if (letter.sendTo(collector, topic, timestamp)) {
                    deadLettered.increment();
                    log.warn("Dead-lettered a record at node {} to topic {}: {}", node, topic, error.getMessage());
                } else {
                    lettersDropped.increment();
                    log.error(
                            "Could not dead-letter a record at node {} to topic {}: its headers alone exceed the "
                                    + "topic's size limit; dropped it ({}): {}",
                            node,
                            topic,
                            WeirMetrics.SIDE_OUTPUT_RECORDS_DROPPED,
                            error.getMessage());
                }
            }
        }
    }

    private void refused(@Nullable SourceInfo source) {
        if (source != null) {
            onInputRefused.run();
        }
    }
}
