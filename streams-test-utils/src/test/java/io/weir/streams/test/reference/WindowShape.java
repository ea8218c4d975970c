package io.weir.streams.test.reference;

import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.SlidingWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.Windows;

import java.time.Duration;

/** The kind and size of windows a {@link Scenario} aggregates over, in milliseconds. */
sealed interface WindowShape {

    /** Weir's DSL windows of this shape with allowed lateness {@code lateness}. */
    Windows toWeir(Duration lateness);

    /** How long one window lasts: the scale the generator picks event-time distances from. */
    long span();

    /** Epoch-aligned windows {@code [n * size, (n + 1) * size)}. */
    record Tumbling(long size) implements WindowShape {
        @Override
        public Windows toWeir(Duration lateness) {
            return TumblingWindows.of(Duration.ofMillis(size)).withAllowedLateness(lateness);
        }

        @Override
        public long span() {
            return size;
        }
    }

    /** Epoch-aligned windows {@code [n * advance, n * advance + size)}. */
    record Hopping(long size, long advance) implements WindowShape {
        @Override
        public Windows toWeir(Duration lateness) {
            return HoppingWindows.of(Duration.ofMillis(size), Duration.ofMillis(advance))
                    .withAllowedLateness(lateness);
        }

        @Override
        public long span() {
            return size;
        }
    }

    /** Kafka Streams' sliding windows over records at most {@code difference} apart. */
    record Sliding(long difference) implements WindowShape {
        @Override
        public Windows toWeir(Duration lateness) {
            return SlidingWindows.ofTimeDifference(Duration.ofMillis(difference))
                    .withAllowedLateness(lateness);
        }

        @Override
        public long span() {
            return difference + 1;
        }
    }

    /**
     * Session windows with gap {@code gap}: a record at {@code t} opens {@code [t, t + gap)} and
     * overlapping sessions of a key merge; {@code maxLength} caps a session's length (0: no cap).
     */
    record Session(long gap, long maxLength) implements WindowShape {
        @Override
        public Windows toWeir(Duration lateness) {
            SessionWindows sessions =
                    SessionWindows.withGap(Duration.ofMillis(gap)).withAllowedLateness(lateness);
            return maxLength == 0 ? sessions : sessions.withMaxSessionLength(Duration.ofMillis(maxLength));
        }

        @Override
        public long span() {
            return gap;
        }
    }
}
