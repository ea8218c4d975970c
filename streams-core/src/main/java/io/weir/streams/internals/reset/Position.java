package io.weir.streams.internals.reset;

import java.time.Instant;

/** Where a reset moves the group's committed offset of each input partition. */
public sealed interface Position {

    /** How the plan says it: "earliest", "the first record at or after 2024-05-01T12:00:00Z", ... */
    String describe();

    /** The partition's first offset (its log-start offset). */
    record Earliest() implements Position {
        @Override
        public String describe() {
            return "earliest";
        }
    }

    /** The partition's end: the input written so far is skipped. */
    record Latest() implements Position {
        @Override
        public String describe() {
            return "latest";
        }
    }

    /** The first record whose timestamp is at or after {@code time}, or the end when there is none. */
    record AtTime(Instant time) implements Position {
        @Override
        public String describe() {
            return "the first record at or after " + time;
        }
    }

    /** This offset in every partition, brought within the partition's first offset and its end. */
    record AtOffset(long offset) implements Position {
        public AtOffset {
            if (offset < 0) {
                throw new IllegalArgumentException("An offset must not be negative: " + offset);
            }
        }

        @Override
        public String describe() {
            return "offset " + offset;
        }
    }
}
