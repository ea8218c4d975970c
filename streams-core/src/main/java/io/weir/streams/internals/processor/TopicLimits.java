package io.weir.streams.internals.processor;

import io.weir.streams.internals.TimeMath;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * What a topic accepts of the records written to it, as its broker would judge them: a size (see {@link
 * RecordSize}) and a range of timestamps around the broker's clock ({@code message.timestamp.before.max.ms}
 * and {@code message.timestamp.after.max.ms}; unlimited for a topic with {@code LogAppendTime}, whose
 * broker stamps records itself). A record the broker refuses makes a transactional producer's open
 * transaction abortable, with every other record in it: checked first, it can go to an error handler
 * alone.
 *
 * <p>Timestamps are judged against the caller's clock with a margin (a tenth of the range, at most a
 * minute) for the difference between this machine's clock and the broker's, and for the time a record
 * waits in the producer.
 *
 * @param maxRecordBytes  the largest record, as a batch holding it alone
 * @param maxPastMs       how far before now a timestamp may be (Long.MAX_VALUE: any)
 * @param maxFutureMs     how far after now a timestamp may be (Long.MAX_VALUE: any)
 */
public record TopicLimits(long maxRecordBytes, long maxPastMs, long maxFutureMs) {

    private static final long MAX_MARGIN_MS = 60_000;

    /** Only a size limit: any timestamp is accepted. */
    public static TopicLimits ofSize(long maxRecordBytes) {
        return new TopicLimits(maxRecordBytes, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public boolean tooLarge(byte @Nullable [] key, byte @Nullable [] value, Headers headers) {
        return RecordSize.batchUpperBound(key, value, headers) > maxRecordBytes;
    }

    /** Whether the topic accepts {@code timestamp} at {@code now}, judged with the margin. */
    public boolean acceptsTimestamp(long timestamp, long now) {
        return timestamp >= earliest(now) && timestamp <= latest(now);
    }

    /** The accepted timestamp nearest to {@code timestamp} at {@code now}. */
    public long nearestAccepted(long timestamp, long now) {
        return Math.max(earliest(now), Math.min(latest(now), timestamp));
    }

    private long earliest(long now) {
        return maxPastMs == Long.MAX_VALUE
                ? Long.MIN_VALUE
                : TimeMath.plus(TimeMath.minus(now, maxPastMs), margin(maxPastMs));
    }

    private long latest(long now) {
        return maxFutureMs == Long.MAX_VALUE
                ? Long.MAX_VALUE
                : TimeMath.minus(TimeMath.plus(now, maxFutureMs), margin(maxFutureMs));
    }

    private static long margin(long range) {
        return Math.min(MAX_MARGIN_MS, range / 10);
    }

    /**
     * Refuses a record the topic would refuse.
     *
     * @throws RecordTooLargeException   when the record is larger than the topic accepts
     * @throws InvalidTimestampException when its timestamp is outside what the topic accepts at {@code now}
     */
    public void check(
            String topic, byte @Nullable [] key, byte @Nullable [] value, Headers headers, long timestamp, long now) {
        long size = RecordSize.batchUpperBound(key, value, headers);
        if (size > maxRecordBytes) {
            throw new RecordTooLargeException("The record for topic '" + topic + "' is up to " + size
                    + " bytes in a batch, more than the " + maxRecordBytes + " bytes the topic accepts (the smallest "
                    + "of its max.message.bytes and the producer's max.request.size and buffer.memory)");
        }
        if (!acceptsTimestamp(timestamp, now)) {
            throw new InvalidTimestampException("The record for topic '" + topic + "' has timestamp " + timestamp
                    + ", "
                    + (timestamp < now
                            ? TimeMath.minus(now, timestamp) + " ms before"
                            : TimeMath.minus(timestamp, now) + " ms after")
                    + " now, outside what the topic accepts (message.timestamp.before.max.ms=" + maxPastMs
                    + ", message.timestamp.after.max.ms=" + maxFutureMs + ", less a margin for clock differences)");
        }
    }
}
