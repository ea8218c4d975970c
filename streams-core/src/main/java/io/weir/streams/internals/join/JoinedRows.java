package io.weir.streams.internals.join;

import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import io.weir.streams.internals.table.RowFormat;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The rows of a join that gives a table: each holds the two input rows it joins, as their own stores
 * hold them ({@code [format 'J'][event time: 8][left row][right row]}, each row a varint length plus one,
 * 0 for none), and stands for the joiner's value of them. Keeping the inputs rather than the result
 * needs no serde for the result, and gives the exact old value of every change: the value is computed
 * from the rows that made it, so an update emits the old result it replaces, never a guess. The joiner
 * must therefore be a function of its arguments. Inner, left or outer: which rows give a result.
 */
public final class JoinedRows<K, V, KO, VO, VR> implements RowFormat<K, VR> {

    private static final byte FORMAT = 'J';

    private final RowFormat<K, V> left;
    private final RowFormat<KO, VO> right;
    private final BiFunction<K, @Nullable V, @Nullable KO> rightKey;
    private final BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner;
    private final boolean leftOuter;
    private final boolean rightOuter;

    /**
     * @param rightKey   the right row's key, from the left key and value: the key itself for a join by key,
     *                   the foreign key of the left value for a foreign-key join (null: none)
     * @param leftOuter  whether a left row without a right row gives a result (left and outer joins)
     * @param rightOuter whether a right row without a left row gives a result (outer joins)
     */
    public JoinedRows(
            RowFormat<K, V> left,
            RowFormat<KO, VO> right,
            BiFunction<K, @Nullable V, @Nullable KO> rightKey,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            boolean leftOuter,
            boolean rightOuter) {
        this.left = left;
        this.right = right;
        this.rightKey = rightKey;
        this.joiner = joiner;
        this.leftOuter = leftOuter;
        this.rightOuter = rightOuter;
    }

    /** The stored row joining {@code leftRow} and {@code rightRow} (either null: absent), at {@code time}. */
    public static byte[] encode(byte @Nullable [] leftRow, byte @Nullable [] rightRow, long time) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(FORMAT);
        out.writeBytes(ByteBuffer.allocate(8).putLong(time).array());
        write(out, leftRow);
        write(out, rightRow);
        return out.toByteArray();
    }

    /** The left row a stored row holds, or null. */
    public static byte @Nullable [] leftRow(byte[] stored) {
        return parts(stored)[0];
    }

    /** The right row a stored row holds, or null. */
    public static byte @Nullable [] rightRow(byte[] stored) {
        return parts(stored)[1];
    }

    @Override
    public @Nullable VR value(K key, byte[] stored) {
        byte[][] parts = parts(stored);
        V l = parts[0] == null ? null : left.value(key, parts[0]);
        KO other = parts[1] == null ? null : rightKey.apply(key, l);
        VO r = other == null ? null : right.value(other, parts[1]);
        return joins(l, r) ? joiner.apply(l, r) : null;
    }

    /** Whether a left value and a right value (null: none) give a result. */
    private boolean joins(@Nullable V l, @Nullable VO r) {
        if (l != null && r != null) {
            return true;
        }
        return l != null ? leftOuter : r != null && rightOuter;
    }

    @Override
    public long timestamp(byte[] stored) {
        return timestampOf(stored);
    }

    /** The event time of a stored row. */
    public static long timestampOf(byte[] stored) {
        check(stored);
        return ByteBuffer.wrap(stored, 1, 8).getLong();
    }

    @Override
    public boolean sameValue(K key, byte @Nullable [] a, byte @Nullable [] b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.equals(a, 9, a.length, b, 9, b.length) || Objects.equals(value(key, a), value(key, b));
    }

    private static byte[] @Nullable [] parts(byte[] stored) {
        check(stored);
        ByteBuffer in = ByteBuffer.wrap(stored, 9, stored.length - 9);
        return new byte[][] {read(in), read(in)};
    }

    private static void check(byte[] stored) {
        if (stored.length > 0 && stored[0] != FORMAT) {
            throw UnknownFormatException.unknownKind(
                    "A join's store", "joined row", stored[0], "'J' (" + FORMAT + ": joined rows, format version 1)");
        }
        UnknownFormatException.check("A join's store", "joined row", stored, FORMAT, 11);
    }

    private static void write(ByteArrayOutputStream out, byte @Nullable [] row) {
        Varints.write(row == null ? 0 : row.length + 1, out);
        if (row != null) {
            out.writeBytes(row);
        }
    }

    private static byte @Nullable [] read(ByteBuffer in) {
        int length = Varints.read(in) - 1;
        if (length < 0) {
            return null;
        }
        byte[] row = new byte[length];
        in.get(row);
        return row;
    }
}
