package io.weir.streams.dsl;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * An unbounded stream of keyed records, each with an event time. Stateless operators keep a
 * record's event time and headers; aggregations (via {@link #groupByKey()}) turn it into a table, or
 * per window into a stream of window results. Operators return new streams; a stream may feed several
 * operators.
 */
public interface EventStream<K, V> {

    /**
     * Keeps the records for which {@code predicate} holds.
     *
     * @param predicate tested on each record's key and value; true keeps the record
     * @return a stream of the records that pass
     */
    EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate);

    /**
     * {@link #filter(BiPredicate)} as the operator {@code named}.
     *
     * @param predicate tested on each record's key and value; true keeps the record
     * @param named the operator's name, in place of a generated one
     * @return a stream of the records that pass
     */
    EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate, Named named);

    /**
     * Drops the records for which {@code predicate} holds.
     *
     * @param predicate tested on each record's key and value; true drops the record
     * @return a stream of the records that fail {@code predicate}
     */
    EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate);

    /**
     * {@link #filterNot(BiPredicate)} as the operator {@code named}.
     *
     * @param predicate tested on each record's key and value; true drops the record
     * @param named the operator's name, in place of a generated one
     * @return a stream of the records that fail {@code predicate}
     */
    EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Named named);

    /**
     * Replaces key and value. Changes the key: a later grouping repartitions.
     *
     * @param <K2> the new key type
     * @param <V2> the new value type
     * @param mapper computes each record's new key and value from the old ones; must not return null
     * @return a stream of the mapped records, with the same event times and headers
     */
    <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper);

    /**
     * {@link #map(BiFunction)} as the operator {@code named}.
     *
     * @param <K2> the new key type
     * @param <V2> the new value type
     * @param mapper computes each record's new key and value from the old ones; must not return null
     * @param named the operator's name, in place of a generated one
     * @return a stream of the mapped records, with the same event times and headers
     */
    <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper, Named named);

    /**
     * Replaces the value, keeping the key.
     *
     * @param <V2> the new value type
     * @param mapper computes each record's new value from its value
     * @return a stream of the mapped records, with the same keys, event times and headers
     */
    <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper);

    /**
     * {@link #mapValues(Function)} as the operator {@code named}.
     *
     * @param <V2> the new value type
     * @param mapper computes each record's new value from its value
     * @param named the operator's name, in place of a generated one
     * @return a stream of the mapped records, with the same keys, event times and headers
     */
    <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Named named);

    /**
     * Replaces each value with the result of an asynchronous call ({@code call} returns a {@link
     * CompletionStage}), with the defaults of {@link Async#defaults()}.
     *
     * @param <V2> the new value type
     * @param call starts the call for a record's value; runs on the stream thread, so it must not block
     * @return a stream of the results, with the same keys, event times and headers
     * @see #mapValuesAsync(Function, Async)
     */
    <V2> EventStream<K, V2> mapValuesAsync(Function<? super V, ? extends CompletionStage<? extends V2>> call);

    /**
     * Replaces each value with the result of an asynchronous call: a remote lookup, a model score, a
     * database read, without the stream thread waiting for it. Many calls are in flight at once, up to the
     * capacity per task; while a task holds that many records it reads no more input.
     *
     * <p><b>Order.</b> The results of one key are forwarded in the order its records arrived; a slow call
     * holds back only its own key's later results ({@link Async#inPartitionOrder()} keeps the partition's
     * order instead). <b>Failures.</b> A call that throws, fails its stage or outlasts its timeout is tried
     * again as {@link Async#withRetries} says; once it has failed its last attempt the topology's
     * processing-error handler decides, as for an exception thrown by {@code mapValues}: fail, skip and
     * count, or dead-letter. <b>Event time.</b> A result keeps its record's event time, and the watermark of
     * the operators after this one stays below the event time of every record still waiting for its call, so
     * waiting never makes a result late. <b>Exactly-once.</b> Each commit stores the records whose calls are
     * still in flight, in the same transaction as the input offsets; after a crash, a rebalance or a restart
     * the task calls for them again before reading on. Calls are therefore made <em>at least once</em> (a
     * call may be repeated after a failure), and results are forwarded <em>exactly once</em>.
     *
     * @param <V2> the new value type
     * @param call starts the call for a record's value; runs on the stream thread, so it must not block; a
     *     completion may come on any thread
     * @param async the capacity, timeout, retries, order, name and serdes
     * @return a stream of the results, with the same keys, event times and headers
     */
    <V2> EventStream<K, V2> mapValuesAsync(
            Function<? super V, ? extends CompletionStage<? extends V2>> call, Async<K, V> async);

    /**
     * {@link #mapValuesAsync(Function, Async)} with a call that also sees the record's key.
     *
     * @param <V2> the new value type
     * @param call starts the call for a record's key and value; must not block
     * @param async the capacity, timeout, retries, order, name and serdes
     * @return a stream of the results, with the same keys, event times and headers
     */
    <V2> EventStream<K, V2> mapValuesAsync(
            BiFunction<? super K, ? super V, ? extends CompletionStage<? extends V2>> call, Async<K, V> async);

    /**
     * Replaces each value with zero or more values from an asynchronous call: a lookup that finds several
     * rows, or none. Everything {@link #mapValuesAsync(Function, Async)} says holds (capacity, order per key
     * or per partition, timeouts, retries, the error handler, event time, exactly-once); a record's values
     * leave together, in the answer's order, in the record's place. An empty or null answer drops the record.
     * An answer whose iteration throws is the record's failure for the processing-error handler, after the
     * values it gave before the throw, as with {@link #flatMapValues(Function)}.
     *
     * @param <V2> the new value type
     * @param call starts the call for a record's value; must not block
     * @param async the capacity, timeout, retries, order, name and serdes
     * @return a stream of the values, each with its record's key, event time and headers
     */
    <V2> EventStream<K, V2> flatMapValuesAsync(
            Function<? super V, ? extends CompletionStage<? extends Iterable<? extends V2>>> call, Async<K, V> async);

    /**
     * {@link #flatMapValuesAsync(Function, Async)} with a call that also sees the record's key.
     *
     * @param <V2> the new value type
     * @param call starts the call for a record's key and value; must not block
     * @param async the capacity, timeout, retries, order, name and serdes
     * @return a stream of the values, each with its record's key, event time and headers
     */
    <V2> EventStream<K, V2> flatMapValuesAsync(
            BiFunction<? super K, ? super V, ? extends CompletionStage<? extends Iterable<? extends V2>>> call,
            Async<K, V> async);

    /**
     * Replaces each record with zero or more records. Changes the key.
     *
     * @param <K2> the new key type
     * @param <V2> the new value type
     * @param mapper gives the records that replace each record (an empty iterable drops it)
     * @return a stream of the produced records, each with the event time and headers of the record it came from
     */
    <K2, V2> EventStream<K2, V2> flatMap(BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper);

    /**
     * {@link #flatMap(BiFunction)} as the operator {@code named}.
     *
     * @param <K2> the new key type
     * @param <V2> the new value type
     * @param mapper gives the records that replace each record (an empty iterable drops it)
     * @param named the operator's name, in place of a generated one
     * @return a stream of the produced records, each with the event time and headers of the record it came from
     */
    <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper, Named named);

    /**
     * Replaces each value with zero or more values, keeping the key.
     *
     * @param <V2> the new value type
     * @param mapper gives the values that replace each record's value (an empty iterable drops the record)
     * @return a stream of the produced records, each with the key, event time and headers of the record it came
     *     from
     */
    <V2> EventStream<K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper);

    /**
     * {@link #flatMapValues(Function)} as the operator {@code named}.
     *
     * @param <V2> the new value type
     * @param mapper gives the values that replace each record's value (an empty iterable drops the record)
     * @param named the operator's name, in place of a generated one
     * @return a stream of the produced records, each with the key, event time and headers of the record it came
     *     from
     */
    <V2> EventStream<K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper, Named named);

    /**
     * Runs {@code action} on each record and passes it on unchanged.
     *
     * @param action called with each record's key and value; its result is ignored
     * @return a stream of the same records
     */
    EventStream<K, V> peek(BiConsumer<? super K, ? super V> action);

    /**
     * {@link #peek(BiConsumer)} as the operator {@code named}.
     *
     * @param action called with each record's key and value; its result is ignored
     * @param named the operator's name, in place of a generated one
     * @return a stream of the same records
     */
    EventStream<K, V> peek(BiConsumer<? super K, ? super V> action, Named named);

    /**
     * Computes a new key from key and value.
     *
     * @param <K2> the new key type
     * @param keyMapper computes each record's new key from its key and value
     * @return a stream of the same values under the new keys, marked for repartitioning before a grouping or
     *     join
     */
    <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper);

    /**
     * {@link #selectKey(BiFunction)} as the operator {@code named}.
     *
     * @param <K2> the new key type
     * @param keyMapper computes each record's new key from its key and value
     * @param named the operator's name, in place of a generated one
     * @return a stream of the same values under the new keys, marked for repartitioning before a grouping or
     *     join
     */
    <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper, Named named);

    /**
     * Splits the stream by predicates: each record goes to the first branch whose predicate holds.
     * <pre>{@code
     * Map<String, EventStream<String, Payment>> branches = payments.split()
     *         .branch("large", (card, p) -> p.amount() > 1000)
     *         .defaultBranch("normal");
     * }</pre>
     *
     * @return a builder of the branches, ended by {@link Branches#defaultBranch} or {@link
     *     Branches#noDefaultBranch}
     */
    Branches<K, V> split();

    /**
     * The records of this stream and {@code other}, interleaved in arrival order.
     *
     * @param other the stream to merge with, from the same builder
     * @return a stream of the records of both streams
     */
    EventStream<K, V> merge(EventStream<K, V> other);

    /**
     * {@link #merge(EventStream)} as the operator {@code named}.
     *
     * @param other the stream to merge with, from the same builder
     * @param named the operator's name, in place of a generated one
     * @return a stream of the records of both streams
     */
    EventStream<K, V> merge(EventStream<K, V> other, Named named);

    /**
     * Writes the records to {@code topic} with the stream's serdes (fails at build time if they are unknown).
     *
     * @param topic the topic to write to; it must exist (Weir does not create it)
     */
    void to(String topic);

    /**
     * Writes the records to {@code topic}.
     *
     * @param topic the topic to write to; it must exist (Weir does not create it)
     * @param produced the serdes (unset ones are the stream's), partitioner and production-error handler
     */
    void to(String topic, Produced<K, V> produced);

    /**
     * Writes each record to the topic {@code topics} chooses for it. The topics must exist; Weir
     * learns them from the data, so it cannot check them at start, and a missing one fails the thread
     * when the first record for it is produced.
     *
     * @param topics chooses each record's topic from its key and value
     * @param produced the serdes (unset ones are the stream's), partitioner and production-error handler
     */
    void to(TopicNameExtractor<? super K, ? super V> topics, Produced<K, V> produced);

    /**
     * Runs {@code action} on each record; a terminal operation (nothing downstream). The action runs
     * when the record is processed, before the task commits: under exactly-once, after a failure it may
     * run again for records whose processing was not committed, so make its effects idempotent, or
     * write to a topic instead.
     *
     * @param action called with each record's key and value
     */
    void foreach(BiConsumer<? super K, ? super V> action);

    /**
     * {@link #foreach(BiConsumer)} as the operator {@code named}.
     *
     * @param action called with each record's key and value
     * @param named the operator's name, in place of a generated one
     */
    void foreach(BiConsumer<? super K, ? super V> action, Named named);

    /**
     * Joins each record with the current row of a global table: {@code keySelector} gives the table
     * key to look up, and {@code joiner} combines the record's value with the row's value. The result
     * keeps the record's key, event time and headers. No repartition: every instance holds the whole
     * table.
     *
     * <p>The row is the table's value when the record is processed (the global table's own thread
     * keeps it current), not the version valid at the record's event time: a replay after the table
     * changed may join differently. A record whose selected key is null is counted ({@code
     * null-join-keys}) and dropped; one the table has no row for is counted ({@code join-misses}) and
     * dropped. What {@code keySelector} or {@code joiner} throws goes to the processing-error handler.
     *
     * @param <GK> the global table's key type
     * @param <GV> the global table's value type
     * @param <VR> the joined value type
     * @param table a global table of this stream's builder
     * @param keySelector gives the table key to look up from the record's key and value; null drops the record
     * @param joiner combines the record's value with the row's value into the result's value
     * @return a stream of the joined records, one per record that found a row
     * @throws IllegalArgumentException if {@code table} is not a global table of this stream's builder
     */
    <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner);

    /**
     * {@link #join(GlobalTable, BiFunction, BiFunction)} as the operator {@code named}.
     *
     * @param <GK> the global table's key type
     * @param <GV> the global table's value type
     * @param <VR> the joined value type
     * @param table a global table of this stream's builder
     * @param keySelector gives the table key to look up from the record's key and value; null drops the record
     * @param joiner combines the record's value with the row's value into the result's value
     * @param named the operator's name, in place of a generated one
     * @return a stream of the joined records, one per record that found a row
     */
    <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner,
            Named named);

    /**
     * {@link #join(GlobalTable, BiFunction, BiFunction)}, except that a record with no row (its
     * selected key null, or absent from the table) is not dropped: {@code joiner} gets null for the
     * row. Both cases are still counted ({@code null-join-keys}, {@code join-misses}).
     *
     * @param <GK> the global table's key type
     * @param <GV> the global table's value type
     * @param <VR> the joined value type
     * @param table a global table of this stream's builder
     * @param keySelector gives the table key to look up from the record's key and value; may return null
     * @param joiner combines the record's value with the row's value (null when there is no row)
     * @return a stream with one joined record per record
     */
    <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner);

    /**
     * {@link #leftJoin(GlobalTable, BiFunction, BiFunction)} as the operator {@code named}.
     *
     * @param <GK> the global table's key type
     * @param <GV> the global table's value type
     * @param <VR> the joined value type
     * @param table a global table of this stream's builder
     * @param keySelector gives the table key to look up from the record's key and value; may return null
     * @param joiner combines the record's value with the row's value (null when there is no row)
     * @param named the operator's name, in place of a generated one
     * @return a stream with one joined record per record
     */
    <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner,
            Named named);

    /**
     * Joins this stream with {@code other} within {@code windows}: {@link #join(EventStream, BiFunction,
     * JoinWindows, StreamJoined)} with the streams' serdes and a generated name.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a matching right value into the result's value
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @return a stream of the joined pairs
     */
    <VO, VR> EventStream<K, VR> join(
            EventStream<K, VO> other, BiFunction<? super V, ? super VO, ? extends VR> joiner, JoinWindows windows);

    /**
     * Joins this stream (left) with {@code other} (right): records {@code l} and {@code r} with the same key
     * match when {@code l.t - before <= r.t <= l.t + after} ({@link JoinWindows}). Each matching pair is
     * emitted once, when its second record arrives, as {@code joiner(l.value, r.value)} with the key, event
     * time {@code max(l.t, r.t)}, and the second record's headers. Both streams are buffered, in
     * changelogged stores, until the watermark (the minimum over both inputs' partitions) has passed what
     * could still match them, then purged; a record the watermark reached (plus the allowed lateness)
     * before it arrived is late: counted and written to the late-data topic {@code joined} names, if any.
     * Records with a null key are counted ({@code null-key-records-skipped}) and skipped.
     *
     * <p>The two streams must be co-partitioned (checked when the application starts); a stream whose key
     * an operator changed is repartitioned by key first through {@code <name>-left-repartition} or {@code
     * <name>-right-repartition}. The buffers need the key and both value serdes: the streams' or {@code joined}'s.
     *
     * <p>A quiet input holds the watermark, so it holds back the purge of both buffers (and an outer join's
     * null results) until its partitions' idleness leaves them out: give a stream that can go quiet an
     * idleness in its {@code Consumed} watermark strategy.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a matching right value into the result's value
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @param joined the join's name, the buffers' serdes and stores, and the late-data topic
     * @return a stream of the joined pairs
     * @throws IllegalArgumentException if {@code other} belongs to another builder
     * @throws IllegalStateException    if a serde the buffers need is unknown
     */
    <VO, VR> EventStream<K, VR> join(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined);

    /**
     * {@link #leftJoin(EventStream, BiFunction, JoinWindows, StreamJoined)} with the streams' serdes.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a matching right value (null for an unmatched left record)
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @return a stream of the joined pairs and of the unmatched left records
     */
    <VO, VR> EventStream<K, VR> leftJoin(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows);

    /**
     * {@link #join(EventStream, BiFunction, JoinWindows, StreamJoined)}, and a left record that no right
     * record matched is emitted as {@code joiner(l.value, null)} at its own event time once the watermark
     * reaches {@code l.t + after + allowedLateness}, when no record that is not late can match it any more:
     * never a null result that a match later contradicts.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a matching right value (null for an unmatched left record)
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @param joined the join's name, the buffers' serdes and stores, and the late-data topic
     * @return a stream of the joined pairs and of the unmatched left records
     */
    <VO, VR> EventStream<K, VR> leftJoin(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined);

    /**
     * {@link #outerJoin(EventStream, BiFunction, JoinWindows, StreamJoined)} with the streams' serdes.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a right value, either null for an unmatched record of the other
     *     side
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @return a stream of the joined pairs and of the unmatched records of both sides
     */
    <VO, VR> EventStream<K, VR> outerJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows);

    /**
     * {@link #leftJoin(EventStream, BiFunction, JoinWindows, StreamJoined)} on both sides: a right record
     * that no left record matched is emitted as {@code joiner(null, r.value)} once the watermark reaches
     * {@code r.t + before + allowedLateness}.
     *
     * @param <VO> the other stream's value type
     * @param <VR> the joined value type
     * @param other the right-hand stream, from the same builder and with the same key type
     * @param joiner combines a left value and a right value, either null for an unmatched record of the other
     *     side
     * @param windows how far apart in event time two records may be to match, and the allowed lateness
     * @param joined the join's name, the buffers' serdes and stores, and the late-data topic
     * @return a stream of the joined pairs and of the unmatched records of both sides
     */
    <VO, VR> EventStream<K, VR> outerJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined);

    /**
     * Joins each record with its key's row of {@code table}: {@link #join(Table, BiFunction, Joined)}
     * with {@link Joined#latest()}, the row the table holds when the record is processed.
     *
     * @param <TV> the table's value type
     * @param <VR> the joined value type
     * @param table the table to look rows up in, from the same builder and co-partitioned with this stream
     * @param joiner combines the record's value with the row's value into the result's value
     * @return a stream of the joined records, one per record that found a row
     */
    <TV, VR> EventStream<K, VR> join(Table<K, TV> table, BiFunction<? super V, ? super TV, ? extends VR> joiner);

    /**
     * Joins each record with its key's row of {@code table}, the version {@code joined} chooses ({@link
     * Joined}: latest, as of the record's event time, or aligned on the table's watermark); {@code joiner}
     * combines the record's value with the row's. The result keeps the record's key, event time and
     * headers. A record with a null key is counted ({@code null-join-keys}) and dropped; one the table
     * has no row for is counted ({@code join-misses}) and dropped. What {@code joiner} throws goes to the
     * processing-error handler.
     *
     * <p>The stream and the table must be co-partitioned: their topics have the same number of partitions
     * and the same key partitioning (checked when the application starts, naming the topics). After an
     * operator changed the stream's key, records are first repartitioned by the new key through the
     * internal topic {@code <name>-repartition}, with the serdes the stream has or {@code joined} gives.
     *
     * @param <TV> the table's value type
     * @param <VR> the joined value type
     * @param table the table to look rows up in, from the same builder and co-partitioned with this stream
     * @param joiner combines the record's value with the row's value into the result's value
     * @param joined which version of the row to join, the serdes, the name and the grace of an aligned join
     * @return a stream of the joined records, one per record that found a row
     * @throws IllegalArgumentException if {@code table} belongs to another builder
     * @throws IllegalStateException    if the mode needs a versioned table and {@code table} is not one,
     *     or a serde the join needs (repartition, aligned buffer) is unknown
     */
    <TV, VR> EventStream<K, VR> join(
            Table<K, TV> table, BiFunction<? super V, ? super TV, ? extends VR> joiner, Joined<K, V> joined);

    /**
     * {@link #leftJoin(Table, BiFunction, Joined)} with {@link Joined#latest()}.
     *
     * @param <TV> the table's value type
     * @param <VR> the joined value type
     * @param table the table to look rows up in, from the same builder and co-partitioned with this stream
     * @param joiner combines the record's value with the row's value (null when there is no row)
     * @return a stream with one joined record per record
     */
    <TV, VR> EventStream<K, VR> leftJoin(
            Table<K, TV> table, BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner);

    /**
     * {@link #join(Table, BiFunction, Joined)}, except that a record with no row (its key null, or absent
     * from the table at the version it meets) is not dropped: {@code joiner} gets null for the row. Both
     * cases are still counted ({@code null-join-keys}, {@code join-misses}).
     *
     * @param <TV> the table's value type
     * @param <VR> the joined value type
     * @param table the table to look rows up in, from the same builder and co-partitioned with this stream
     * @param joiner combines the record's value with the row's value (null when there is no row)
     * @param joined which version of the row to join, the serdes, the name and the grace of an aligned join
     * @return a stream with one joined record per record
     */
    <TV, VR> EventStream<K, VR> leftJoin(
            Table<K, TV> table, BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner, Joined<K, V> joined);

    /**
     * Drops repeated records: {@link #deduplicate(BiFunction, Duration, Deduplicated)} with the key as
     * the id, the stream's key serde, a generated name, and no late-data topic.
     *
     * @param within how far apart in event time a repeat may be from the record it repeats; positive
     * @return a stream of the records that are not repeats
     */
    EventStream<K, V> deduplicate(Duration within);

    /**
     * Drops repeated records: a record passes unless a record with the same key and the same id
     * ({@code idSelector}'s result) passed before it with an event time at most {@code within} from its
     * own; a repeat is dropped and counted ({@code duplicates-dropped}). When the id alone identifies a
     * record whatever its key, key the stream by it first ({@code selectKey}), so that repeats meet in
     * one partition; after a key change the stream is repartitioned by key first, as for a grouping.
     *
     * <p>Time: "before" is processing order, so a replay after a crash passes and drops exactly the
     * same records. The records that passed are remembered until the watermark reaches their event time
     * plus {@code within} (plus the allowed lateness), in a changelogged store. A record the watermark
     * has already reached (less the allowed lateness) is late, since a record it repeats may have been
     * forgotten: it is neither passed nor judged, but refused as late records are — counted in {@code
     * late-records-dropped}, and written to the late-data topic {@link Deduplicated#withLateRecordsTo}
     * names, if any. A record whose id is null passes, counted ({@code null-id-records-passed}); a
     * record with a null key is counted and skipped, as by every keyed operator.
     *
     * @param <I> the type of the id
     * @param idSelector gives a record's id from its key and value; null lets the record pass
     * @param within how far apart in event time a repeat may be from the record it repeats; positive
     * @param deduplicated the id serde, the operator's name and the late-data topic
     * @return a stream of the records that are not repeats
     * @throws IllegalArgumentException if {@code within} is not positive
     * @throws IllegalStateException if the stream's key serde is unknown (it keys the store), or the key
     *     was changed and its value serde is unknown (the repartition needs it)
     */
    <I> EventStream<K, V> deduplicate(
            BiFunction<? super K, ? super V, ? extends I> idSelector, Duration within, Deduplicated<I> deduplicated);

    /**
     * Groups by the current key, for an aggregation (into a table, or per window with {@link
     * GroupedStream#windowedBy(Windows)}) or a keyed processor ({@code process}). After an operator that
     * changed the key, records are first repartitioned by the new key through an internal topic (see
     * {@link Grouped}); the stream's serdes must then be known.
     *
     * @return the stream grouped by its key
     */
    GroupedStream<K, V> groupByKey();

    /**
     * {@link #groupByKey()} with the serdes and name of the repartition topic, if one is needed.
     *
     * @param grouped the repartition topic's serdes and name, used only when the key was changed
     * @return the stream grouped by its key
     */
    GroupedStream<K, V> groupByKey(Grouped<K, V> grouped);

    /**
     * Groups by the key {@code keySelector} computes: a {@code selectKey} then {@link #groupByKey()},
     * so records are repartitioned by the new key (the stream's value serde must be known, and the new
     * key's serde given with {@link #groupBy(BiFunction, Grouped)} unless the selector keeps the type).
     *
     * @param <K2> the new key type
     * @param keySelector computes each record's group key from its key and value
     * @return the stream grouped by the computed key
     */
    <K2> GroupedStream<K2, V> groupBy(BiFunction<? super K, ? super V, ? extends K2> keySelector);

    /**
     * {@link #groupBy(BiFunction)} with the repartition topic's serdes and name; a name also names the
     * key-selecting operator {@code <name>-select-key}.
     *
     * @param <K2> the new key type
     * @param keySelector computes each record's group key from its key and value
     * @param grouped the repartition topic's serdes and name
     * @return the stream grouped by the computed key
     */
    <K2> GroupedStream<K2, V> groupBy(
            BiFunction<? super K, ? super V, ? extends K2> keySelector, Grouped<K2, V> grouped);

    /**
     * Writes the stream through an internal repartition topic, partitioned by its current key, and
     * reads it back: what follows runs in the tasks of that topic. Needs the stream's serdes.
     *
     * @return the same records, read back from the repartition topic
     */
    EventStream<K, V> repartition();

    /**
     * {@link #repartition()} with the topic's serdes, name and partition count.
     *
     * @param repartitioned the repartition topic's serdes, name and number of partitions
     * @return the same records, read back from the repartition topic
     */
    EventStream<K, V> repartition(Repartitioned<K, V> repartitioned);
}
