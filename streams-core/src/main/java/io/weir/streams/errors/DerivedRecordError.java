package io.weir.streams.errors;

import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * An error about a record inside the topology ({@link ProcessingError}, {@link ProductionError}): it
 * names the input record that record derives from, by its coordinates (never its payload), or none for
 * a record derived from a window result or a timer.
 */
public abstract class DerivedRecordError extends RuntimeException {

    /** The topic of the input record, or null when there is none. */
    private final @Nullable String sourceTopic;
    /** The partition of the input record, or -1. */
    private final int sourcePartition;
    /** The offset of the input record, or -1. */
    private final long sourceOffset;

    /**
     * An error about a record that derives from the input record at {@code
     * sourceTopic-sourcePartition@sourceOffset}, or from none.
     *
     * @param message the detail message, naming the operator or sink and the coordinates
     * @param sourceTopic the topic of the input record the failed record derives from, or null when
     *                    there is none
     * @param sourcePartition that input record's partition, or -1 when there is none
     * @param sourceOffset that input record's offset, or -1 when there is none
     * @param cause the exception that caused the failure
     */
    protected DerivedRecordError(
            String message, @Nullable String sourceTopic, int sourcePartition, long sourceOffset, Throwable cause) {
        super(message, cause);
        this.sourceTopic = sourceTopic;
        this.sourcePartition = sourcePartition;
        this.sourceOffset = sourceOffset;
    }

    /**
     * {@code topic-partition@offset}, or {@code none} when there is no input record: for messages.
     *
     * @param sourceTopic the input record's topic, or null when there is none
     * @param sourcePartition the input record's partition
     * @param sourceOffset the input record's offset
     * @param none what to say when there is no input record, e.g. {@code "a window result"}
     * @return the coordinates, or {@code none}
     */
    protected static String coordinates(
            @Nullable String sourceTopic, int sourcePartition, long sourceOffset, String none) {
        return sourceTopic == null ? none : sourceTopic + "-" + sourcePartition + "@" + sourceOffset;
    }

    /**
     * The topic of the input record the failed record derives from; empty when there is none.
     *
     * @return the topic, if the failed record derives from an input record
     */
    public Optional<String> sourceTopic() {
        return Optional.ofNullable(sourceTopic);
    }

    /**
     * The partition of that input record, or -1 when there is none.
     *
     * @return the partition, or -1
     */
    public int sourcePartition() {
        return sourcePartition;
    }

    /**
     * The offset of that input record, or -1 when there is none.
     *
     * @return the offset, or -1
     */
    public long sourceOffset() {
        return sourceOffset;
    }
}
