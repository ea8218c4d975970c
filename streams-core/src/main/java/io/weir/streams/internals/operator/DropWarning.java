package io.weir.streams.internals.operator;

import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rate-limited WARN line for records an operator drops without keeping them anywhere: the first drop
 * logs at once, later ones at most once per {@link #INTERVAL_NANOS}, with the count since the last line,
 * the total, and the coordinates of the latest (never its payload). Counting stays the metrics' job; this
 * makes a drop visible to someone who reads logs but not dashboards, as Kafka Streams does. Used by
 * one task's thread.
 */
final class DropWarning {

    private static final Logger log = LoggerFactory.getLogger(DropWarning.class);
    private static final long INTERVAL_NANOS = 30_000_000_000L;

    private final String operator;
    private final String what;
    private final String advice;
    private long sinceLastLine;
    private long total;
    private long lastLine;
    private boolean logged;

    /**
     * @param what   the records dropped, plural ("records with a null key")
     * @param advice what to do to keep or avoid them, with the metric that counts them
     */
    DropWarning(String operator, String what, String advice) {
        this.operator = operator;
        this.what = what;
        this.advice = advice;
    }

    /**
     * One more record dropped, judged against {@code watermark}; the line, when one is due, names its
     * coordinates and times, never its payload. Nothing is formatted for a drop that logs nothing.
     */
    void dropped(Record<?, ?> record, long watermark) {
        sinceLastLine++;
        total++;
        long now = System.nanoTime();
        if (logged && now - lastLine < INTERVAL_NANOS) {
            return;
        }
        SourceInfo source = record.source();
        log.warn(
                "Operator '{}' dropped {} {} since its last warning ({} in total), the latest {} with event time {} "
                        + "(watermark {}). {}",
                operator,
                sinceLastLine,
                what,
                total,
                source == null ? "derived from a window result" : "at " + source.coordinates(),
                record.timestamp(),
                watermark,
                advice);
        logged = true;
        lastLine = now;
        sinceLastLine = 0;
    }
}
