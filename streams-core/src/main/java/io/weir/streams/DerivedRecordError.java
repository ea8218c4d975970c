package io.weir.streams;

import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * An error about a record inside the topology ({@link ProcessingError}, {@link ProductionError}): it
 * names the input record that record derives from, by its coordinates (never its payload), or none for
 * a record derived from a window result or a timer.
 */
public abstract class DerivedRecordError extends RuntimeException {

    private final @Nullable String sourceTopic;
    private final int sourcePartition;
    private final long sourceOffset;

    /**
     * @param sourceTopic the topic of the input record the failed record derives from, or null when
     *                    there is none
     */
    protected DerivedRecordError(
            String message, @Nullable String sourceTopic, int sourcePartition, long sourceOffset, Throwable cause) {
        super(message, cause);
        this.sourceTopic = sourceTopic;
        this.sourcePartition = sourcePartition;
        this.sourceOffset = sourceOffset;
    }

    /** {@code topic-partition@offset}, or {@code none} when there is no input record: for messages. */
    protected static String coordinates(
            @Nullable String sourceTopic, int sourcePartition, long sourceOffset, String none) {
        return sourceTopic == null ? none : sourceTopic + "-" + sourcePartition + "@" + sourceOffset;
    }

    /** The topic of the input record the failed record derives from; empty when there is none. */
    public Optional<String> sourceTopic() {
        return Optional.ofNullable(sourceTopic);
    }

    /** The partition of that input record, or -1 when there is none. */
    public int sourcePartition() {
        return sourcePartition;
    }

    /** The offset of that input record, or -1 when there is none. */
    public long sourceOffset() {
        return sourceOffset;
    }
}
