package io.weir.streams.internals.table;

import org.jspecify.annotations.Nullable;

/**
 * How a table operator's store holds its rows: the value a stored row stands for, its event time, and
 * whether two stored rows stand for the same value. Most tables store {@link TableRowCodec} rows ({@link
 * #of}); a table–table join stores the two rows it joined and computes its value from them. One instance
 * per task, like the serdes inside it.
 */
public interface RowFormat<K, V> {

    /** The value stored row {@code stored} of {@code key} stands for; null when it has none (a delete). */
    @Nullable
    V value(K key, byte[] stored);

    /** The event time of a stored row. */
    long timestamp(byte[] stored);

    /** Whether two stored rows of {@code key} (null: absent) stand for the same value, whatever their times. */
    boolean sameValue(K key, byte @Nullable [] a, byte @Nullable [] b);

    /** Rows stored by {@code codec}. */
    static <K, V> RowFormat<K, V> of(TableRowCodec<V> codec) {
        return new RowFormat<>() {
            @Override
            public @Nullable V value(K key, byte[] stored) {
                return codec.decode(stored).value();
            }

            @Override
            public long timestamp(byte[] stored) {
                return TableRowCodec.timestamp(stored);
            }

            @Override
            public boolean sameValue(K key, byte @Nullable [] a, byte @Nullable [] b) {
                return codec.sameValue(a, b);
            }
        };
    }
}
