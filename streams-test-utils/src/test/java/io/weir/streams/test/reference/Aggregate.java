package io.weir.streams.test.reference;

import java.util.List;

/** What a {@link Scenario} computes per key and window: Weir's {@code count()} or {@code reduce(Long::sum)}. */
enum Aggregate {
    COUNT,
    SUM;

    /** The result over the values of a window's records. */
    long of(List<Long> values) {
        return this == COUNT
                ? values.size()
                : values.stream().mapToLong(Long::longValue).sum();
    }
}
