package io.weir.streams.test.reference;

/** One step of a generated stream: a record arrives, or processing time moves on with no record. */
sealed interface StreamStep {

    /** {@code record} arrives (processing time first moves to its arrival time). */
    record Arrival(InputRecord record) implements StreamStep {
        @Override
        public String toString() {
            return record.toString();
        }
    }

    /** Processing time moves to {@code processingTime} without a record. */
    record AdvanceTime(long processingTime) implements StreamStep {
        @Override
        public String toString() {
            return "advance processing time to " + processingTime;
        }
    }
}
