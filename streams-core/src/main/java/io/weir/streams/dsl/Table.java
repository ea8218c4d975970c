package io.weir.streams.dsl;

import org.jspecify.annotations.Nullable;

import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A table: at most one current value per key, changed by updates and deleted by a null value. What
 * travels between table operators is each change of a row, its old value and its new one, so an
 * aggregation downstream ({@link #groupBy}) takes the old value back before it adds the new one.
 *
 * <p>A materialized table (an aggregation's result) emits by default the last value per key at each
 * commit: its store's write-back cache coalesces the updates in between, and a key whose value ends a
 * commit where it started emits nothing. {@code Materialized.withEmitEveryChange()} emits each change
 * instead. Stateless operators ({@link #filter}, {@link #mapValues}) pass changes on as they come.
 */
public interface Table<K, V> {

    /**
     * Keeps the rows for which {@code predicate} holds: a row that stops passing is deleted downstream,
     * and a change whose old and new values both fail is not passed on.
     *
     * @param predicate tested on each row's key and value; true keeps the row
     * @return the table of the rows that pass
     */
    Table<K, V> filter(BiPredicate<? super K, ? super V> predicate);

    /**
     * {@link #filter(BiPredicate)}, materialized in the store {@code materialized} names: the derived
     * table keeps its rows (with a changelog of its own, since no topic holds them) and emits its own
     * changes, by default the last per key at each commit.
     *
     * @param predicate tested on each row's key and value; true keeps the row
     * @param materialized the derived table's store: its name, type, serdes and logging
     * @return the table of the rows that pass, materialized
     */
    Table<K, V> filter(BiPredicate<? super K, ? super V> predicate, Materialized<K, V> materialized);

    /**
     * {@link #filter(BiPredicate)} as the operator {@code named}.
     *
     * @param predicate tested on each row's key and value; true keeps the row
     * @param named the operator's name, in place of a generated one
     * @return the table of the rows that pass
     */
    Table<K, V> filter(BiPredicate<? super K, ? super V> predicate, Named named);

    /**
     * Drops the rows for which {@code predicate} holds; see {@link #filter}.
     *
     * @param predicate tested on each row's key and value; true drops the row
     * @return the table of the rows that fail {@code predicate}
     */
    Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate);

    /**
     * {@link #filterNot(BiPredicate)}, materialized as {@link #filter(BiPredicate, Materialized)} is.
     *
     * @param predicate tested on each row's key and value; true drops the row
     * @param materialized the derived table's store: its name, type, serdes and logging
     * @return the table of the rows that fail {@code predicate}, materialized
     */
    Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Materialized<K, V> materialized);

    /**
     * {@link #filterNot(BiPredicate)} as the operator {@code named}.
     *
     * @param predicate tested on each row's key and value; true drops the row
     * @param named the operator's name, in place of a generated one
     * @return the table of the rows that fail {@code predicate}
     */
    Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Named named);

    /**
     * Replaces each row's value; the mapper sees old and new values alike, so it must be a function of
     * the value only. The new value's serde is unknown afterwards: give it where it is needed.
     *
     * @param <V2> the new value type
     * @param mapper computes a row's new value from its value alone
     * @return the table of the mapped rows, with the same keys
     */
    <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper);

    /**
     * {@link #mapValues(Function)}, materialized as {@link #filter(BiPredicate, Materialized)} is; the new
     * values' serde must be given with {@code Materialized.withValueSerde}.
     *
     * @param <V2> the new value type
     * @param mapper computes a row's new value from its value alone
     * @param materialized the derived table's store; its value serde is required
     * @return the table of the mapped rows, with the same keys, materialized
     */
    <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Materialized<K, V2> materialized);

    /**
     * {@link #mapValues(Function)} as the operator {@code named}.
     *
     * @param <V2> the new value type
     * @param mapper computes a row's new value from its value alone
     * @param named the operator's name, in place of a generated one
     * @return the table of the mapped rows, with the same keys
     */
    <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Named named);

    /**
     * The table's changes as a stream: each update as its new value, each delete as a tombstone (a null
     * value), stamped with the row's event time.
     *
     * @return a stream of the table's changes, deletes as null values
     */
    EventStream<K, V> toStream();

    /**
     * The table's changes as a stream, refined as {@code refinement} says: {@link
     * Refinement#ACCUMULATING} is {@link #toStream()}; {@link Refinement#ACCUMULATING_AND_RETRACTING}
     * sends before each update or delete of a row that had a value a retraction of that value (a
     * record with the header {@value PaneInfo#RETRACTION_HEADER}{@code =true}), for a consumer that sums
     * across keys. {@link Refinement#DISCARDING} has no meaning for a table's values and is refused.
     *
     * @param refinement {@link Refinement#ACCUMULATING} or {@link Refinement#ACCUMULATING_AND_RETRACTING}
     * @return a stream of the table's changes, with retractions if asked for
     */
    EventStream<K, V> toStream(Refinement refinement);

    /**
     * {@link #toStream(Refinement)} as the operator {@code named}.
     *
     * @param refinement {@link Refinement#ACCUMULATING} or {@link Refinement#ACCUMULATING_AND_RETRACTING}
     * @param named the operator's name, in place of a generated one
     * @return a stream of the table's changes, with retractions if asked for
     */
    EventStream<K, V> toStream(Refinement refinement, Named named);

    /**
     * Joins this table (left) with {@code other} (right) by key, giving a table whose row for a key is
     * {@code joiner(left row, right row)} while both tables have a row for it (an inner join). The two
     * tables must be co-partitioned (checked when the application starts).
     *
     * <p>Any change of either side recomputes the key's result from both tables' current rows, so the
     * result never depends on the order in which the two sides' changes arrive: at every commit the
     * result, applied as upserts (or with retractions, see {@link #toStream(Refinement)}), equals the
     * relational join of the two tables. Each change carries the exact old result. The result is kept in
     * a store of its own, which holds the two rows each result was computed from (so no serde is needed
     * for the results, and {@code joiner} must be a function of its arguments), and emits by default the
     * last change per key at each commit.
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left and right rows; a pure function of them
     * @return the joined table, keyed like both inputs
     */
    <VO, VR> Table<K, VR> join(Table<K, VO> other, BiFunction<? super V, ? super VO, ? extends VR> joiner);

    /**
     * {@link #join(Table, BiFunction)} with the result's store named, placed and emitting as {@code
     * materialized} says (its name, store type, logging and {@code withEmitEveryChange}; serdes,
     * retention, versions and time-to-live are refused: the store holds the input rows).
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left and right rows; a pure function of them
     * @param materialized the result store's name, store type, logging and emission
     * @return the joined table, keyed like both inputs
     */
    <VO, VR> Table<K, VR> join(
            Table<K, VO> other,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            Materialized<K, VR> materialized);

    /**
     * {@link #join(Table, BiFunction)}, and a left row without a right row gives {@code joiner(left row,
     * null)}.
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left row and the right row (null when there is none)
     * @return the joined table, with a row for every left row
     */
    <VO, VR> Table<K, VR> leftJoin(
            Table<K, VO> other, BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner);

    /**
     * {@link #leftJoin(Table, BiFunction)} materialized as {@link #join(Table, BiFunction, Materialized)} is.
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left row and the right row (null when there is none)
     * @param materialized the result store's name, store type, logging and emission
     * @return the joined table, with a row for every left row
     */
    <VO, VR> Table<K, VR> leftJoin(
            Table<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized);

    /**
     * {@link #leftJoin(Table, BiFunction)}, and a right row without a left row gives {@code joiner(null,
     * right row)}.
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left and right rows, either of them null when absent
     * @return the joined table, with a row for every key either table has
     */
    <VO, VR> Table<K, VR> outerJoin(
            Table<K, VO> other, BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner);

    /**
     * {@link #outerJoin(Table, BiFunction)} materialized as {@link #join(Table, BiFunction, Materialized)} is.
     *
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder and co-partitioned with this one
     * @param joiner computes a result row from the left and right rows, either of them null when absent
     * @param materialized the result store's name, store type, logging and emission
     * @return the joined table, with a row for every key either table has
     */
    <VO, VR> Table<K, VR> outerJoin(
            Table<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized);

    /**
     * Joins each row of this table (left) with the row of {@code other} (right) whose key is {@code
     * foreignKey(left row)}: a foreign-key join, giving a table keyed like this one whose row is {@code
     * joiner(left row, right row)} while the right table has that row (an inner join). The two tables may be
     * partitioned differently: the join runs through two internal topics, {@code
     * <name>-subscription-repartition} (each left row's interest in a foreign key, partitioned like {@code
     * other}) and {@code <name>-response-repartition} (the right rows sent back, partitioned like this
     * table), both written in the tasks' transactions.
     *
     * <p>When the right row changes, every left row referring to it is joined again; when a left row's
     * foreign key changes, its result waits for the new right row and is never joined with the old one or
     * with null meanwhile; a response that arrives after the left row moved on (its foreign key changed
     * again, or it was deleted) is dropped. Once no message is in flight, the result applied as upserts is
     * the relational join; each change carries the exact old result (the store holds the rows each result
     * was computed from, so {@code foreignKey} and {@code joiner} must be functions of their arguments). A
     * left row whose {@code foreignKey} is null is counted ({@code null-join-keys}) and has no result;
     * what {@code foreignKey} or {@code joiner} throws goes to the processing-error handler.
     *
     * @param <KO> the other table's key type, which {@code foreignKey} returns
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder; its partitioning may differ
     * @param foreignKey gives the right table's key from a left row's value; null means no result
     * @param joiner computes a result row from the left and right rows; a pure function of them
     * @return the joined table, keyed like this one
     */
    <KO, VO, VR> Table<K, VR> join(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super VO, ? extends VR> joiner);

    /**
     * {@link #join(Table, Function, BiFunction)} with the result's store (and the join's name) as {@code
     * materialized} says, as for {@link #join(Table, BiFunction, Materialized)}.
     *
     * @param <KO> the other table's key type, which {@code foreignKey} returns
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder; its partitioning may differ
     * @param foreignKey gives the right table's key from a left row's value; null means no result
     * @param joiner computes a result row from the left and right rows; a pure function of them
     * @param materialized the result store's name (which also names the join), store type, logging and emission
     * @return the joined table, keyed like this one
     */
    <KO, VO, VR> Table<K, VR> join(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            Materialized<K, VR> materialized);

    /**
     * {@link #join(Table, Function, BiFunction)}, and a left row whose foreign key is null or absent from
     * {@code other} gives {@code joiner(left row, null)}.
     *
     * @param <KO> the other table's key type, which {@code foreignKey} returns
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder; its partitioning may differ
     * @param foreignKey gives the right table's key from a left row's value; may return null
     * @param joiner computes a result row from the left row and the right row (null when there is none)
     * @return the joined table, with a row for every left row
     */
    <KO, VO, VR> Table<K, VR> leftJoin(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner);

    /**
     * {@link #leftJoin(Table, Function, BiFunction)} materialized as {@link #join(Table, BiFunction,
     * Materialized)} is.
     *
     * @param <KO> the other table's key type, which {@code foreignKey} returns
     * @param <VO> the other table's value type
     * @param <VR> the result's value type
     * @param other the right-hand table, from the same builder; its partitioning may differ
     * @param foreignKey gives the right table's key from a left row's value; may return null
     * @param joiner computes a result row from the left row and the right row (null when there is none)
     * @param materialized the result store's name (which also names the join), store type, logging and emission
     * @return the joined table, with a row for every left row
     */
    <KO, VO, VR> Table<K, VR> leftJoin(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized);

    /**
     * Re-keys the table for an aggregation: {@code selector} maps each row to the key and value it
     * contributes to its group. Each change is written through a repartition topic as the removal of
     * the old row from its group and the addition of the new row to its group (one record when both
     * are the same group), in the transaction of the change. The table's serdes are used for the
     * repartition topic.
     *
     * @param <K2> the group key type
     * @param <V2> the type of the value a row contributes to its group
     * @param selector maps a row's key and value to its group key and the value it contributes
     * @return the re-keyed table, to aggregate
     */
    <K2, V2> GroupedTable<K2, V2> groupBy(BiFunction<? super K, ? super V, KeyValue<K2, V2>> selector);

    /**
     * {@link #groupBy(BiFunction)} with the repartition topic's serdes and name.
     *
     * @param <K2> the group key type
     * @param <V2> the type of the value a row contributes to its group
     * @param selector maps a row's key and value to its group key and the value it contributes
     * @param grouped the repartition topic's serdes and name
     * @return the re-keyed table, to aggregate
     */
    <K2, V2> GroupedTable<K2, V2> groupBy(
            BiFunction<? super K, ? super V, KeyValue<K2, V2>> selector, Grouped<K2, V2> grouped);
}
