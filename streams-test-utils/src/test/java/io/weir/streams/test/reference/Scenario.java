package io.weir.streams.test.reference;

import io.weir.streams.state.StoreType;

import java.util.OptionalLong;

/**
 * One configuration of the property suite: the windowed aggregation under test, its watermark
 * settings, where its state lives, and the shape of the random streams fed to it. Build with
 * {@link #of}; times are milliseconds.
 *
 * @param cacheBytes      the TestDriver's write-back cache per task (small values force commits
 *                        between records)
 * @param outOfOrderShare the share of records whose event time lags the stream's event clock
 * @param maxDisorder     the most such a record lags (records that lag further are generated
 *                        separately, to be dropped)
 */
record Scenario(
        WindowShape windows,
        Aggregate aggregate,
        StoreType storeType,
        long allowedLateness,
        long delay,
        OptionalLong idleness,
        OptionalLong maxFutureSkew,
        boolean lateTopic,
        long cacheBytes,
        double outOfOrderShare,
        long maxDisorder) {

    private static final long DEFAULT_CACHE_BYTES = 10L * 1024 * 1024;

    /**
     * A scenario over {@code windows} that, unless told otherwise, counts in an in-memory store with
     * no allowed lateness, no delay, no idleness, no future skew and no side output, fed streams with
     * 30% of records out of order by up to two window spans.
     */
    static Builder of(WindowShape windows) {
        return new Builder(windows);
    }

    @Override
    public String toString() {
        return windows + " " + aggregate + " " + storeType + " lateness=" + allowedLateness + " delay=" + delay
                + (idleness.isPresent() ? " idleness=" + idleness.getAsLong() : "")
                + (maxFutureSkew.isPresent() ? " maxFutureSkew=" + maxFutureSkew.getAsLong() : "")
                + (lateTopic ? " +side-output" : "")
                + (cacheBytes != DEFAULT_CACHE_BYTES ? " cache=" + cacheBytes + "B" : "")
                + " disorder=" + outOfOrderShare + "/" + maxDisorder;
    }

    /** Collects a {@link Scenario}'s settings; each method changes one and returns this builder. */
    static final class Builder {
        private final WindowShape windows;
        private Aggregate aggregate = Aggregate.COUNT;
        private StoreType storeType = StoreType.IN_MEMORY;
        private long allowedLateness;
        private long delay;
        private OptionalLong idleness = OptionalLong.empty();
        private OptionalLong maxFutureSkew = OptionalLong.empty();
        private boolean lateTopic;
        private long cacheBytes = DEFAULT_CACHE_BYTES;
        private double outOfOrderShare = 0.3;
        private long maxDisorder;

        private Builder(WindowShape windows) {
            this.windows = windows;
            this.maxDisorder = 2 * windows.span();
        }

        /** Sum the values ({@code reduce(Long::sum)}) instead of counting. */
        Builder sum() {
            aggregate = Aggregate.SUM;
            return this;
        }

        Builder rocksDb() {
            storeType = StoreType.ROCKSDB;
            return this;
        }

        Builder lateness(long lateness) {
            allowedLateness = lateness;
            return this;
        }

        Builder delay(long outOfOrderness) {
            delay = outOfOrderness;
            return this;
        }

        Builder idleness(long processingTime) {
            idleness = OptionalLong.of(processingTime);
            return this;
        }

        Builder maxFutureSkew(long skew) {
            maxFutureSkew = OptionalLong.of(skew);
            return this;
        }

        /** Write refused records to a late-data side output. */
        Builder withLateTopic() {
            lateTopic = true;
            return this;
        }

        Builder cacheBytes(long bytes) {
            cacheBytes = bytes;
            return this;
        }

        Builder disorder(double share, long max) {
            outOfOrderShare = share;
            maxDisorder = max;
            return this;
        }

        Scenario build() {
            return new Scenario(
                    windows,
                    aggregate,
                    storeType,
                    allowedLateness,
                    delay,
                    idleness,
                    maxFutureSkew,
                    lateTopic,
                    cacheBytes,
                    outOfOrderShare,
                    maxDisorder);
        }
    }
}
