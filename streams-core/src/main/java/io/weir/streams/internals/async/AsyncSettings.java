package io.weir.streams.internals.async;

/**
 * How an asynchronous operator calls out: how many records it holds per task ({@code capacity}), how many
 * calls of one key may be in flight at once, each attempt's timeout, how many times a failed attempt is
 * retried, the backoff before each retry (doubling from {@code firstBackoffMs} up to {@code maxBackoffMs}),
 * and the order its results leave in. Validated by the DSL's {@code Async}, which makes it.
 */
public record AsyncSettings(
        int capacity,
        int capacityPerKey,
        long timeoutMs,
        int retries,
        long firstBackoffMs,
        long maxBackoffMs,
        Order order) {

    /** The order results leave in. */
    public enum Order {
        /** The results of one key in the order its records arrived; different keys may overtake each other. */
        PER_KEY,
        /** Every result in the order the records arrived in the partition. */
        PARTITION
    }

    public AsyncSettings {
        if (capacity < 1
                || capacityPerKey < 1
                || timeoutMs < 1
                || retries < 0
                || firstBackoffMs < 0
                || maxBackoffMs < firstBackoffMs) {
            throw new IllegalArgumentException("Invalid asynchronous operator settings: capacity " + capacity
                    + ", per key " + capacityPerKey + ", timeout " + timeoutMs + " ms, retries " + retries
                    + ", backoff " + firstBackoffMs + " to " + maxBackoffMs + " ms");
        }
    }

    /** The backoff after failed attempt number {@code attempt} (1 for the first): doubling, capped. */
    public long backoffMs(int attempt) {
        long backoff = firstBackoffMs;
        for (int i = 1; i < attempt && backoff < maxBackoffMs; i++) {
            backoff = backoff > maxBackoffMs / 2 ? maxBackoffMs : backoff * 2;
        }
        return Math.min(backoff, maxBackoffMs);
    }
}
