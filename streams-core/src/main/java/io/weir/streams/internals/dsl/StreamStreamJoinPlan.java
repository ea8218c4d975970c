package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.join.StreamStreamJoinProcessor;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A windowed stream–stream join as the graph holds it ({@link StreamStreamJoinProcessor}): the join's
 * name, the serdes both sides are buffered with, a repartition of each side whose key changed, the
 * buffers {@code <name>-left} and {@code <name>-right} (and an outer side's {@code -unmatched} index)
 * with the changelog retention their segments need, and one node per side sharing all of them.
 */
final class StreamStreamJoinPlan<K, V, VO, VR> {

    private final EventStreamImpl<K, V> left;
    private final EventStreamImpl<K, VO> right;
    private final BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner;
    private final StreamJoined<K, V, VO> joined;
    private final boolean leftOuter;
    private final boolean rightOuter;
    private final String name;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final Serde<VO> otherValueSerde;
    private final long before;
    private final long after;
    private final long lateness;

    /** Checks the join's arguments and names it; adds nothing to the graph yet. */
    StreamStreamJoinPlan(
            EventStreamImpl<K, V> left,
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined,
            boolean leftOuter,
            boolean rightOuter) {
        Objects.requireNonNull(other, "other");
        this.joiner = Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(windows, "windows");
        this.joined = Objects.requireNonNull(joined, "joined");
        EventStreamImpl<K, VO> o = (EventStreamImpl<K, VO>) other;
        if (o.graph != left.graph) {
            throw new IllegalArgumentException("join: the other stream belongs to another StreamsBuilder; build "
                    + "both streams with the same builder");
        }
        this.left = left;
        this.right = o;
        this.leftOuter = leftOuter;
        this.rightOuter = rightOuter;
        String kind = rightOuter ? "outer-join" : leftOuter ? "left-join" : "join";
        this.name = joined.name().orElseGet(() -> left.graph.newName(kind));
        Serde<K> k = joined.keySerde().orElse(left.keySerde != null ? left.keySerde : o.keySerde);
        Serde<V> v = joined.valueSerde().orElse(left.valueSerde);
        Serde<VO> vo = joined.otherValueSerde().orElse(o.valueSerde);
        if (k == null || v == null || vo == null) {
            String which = k == null ? "key" : v == null ? "left stream's value" : "right stream's value";
            throw new IllegalStateException(kind + " '" + name + "': both streams are buffered in stores, and the "
                    + which + " serde is unknown; give it with StreamJoined.with(keySerde, valueSerde, "
                    + "otherValueSerde)");
        }
        this.keySerde = k;
        this.valueSerde = v;
        this.otherValueSerde = vo;
        this.before = TimeMath.millis(windows.before());
        this.after = TimeMath.millis(windows.after());
        this.lateness = TimeMath.millis(windows.allowedLateness());
    }

    /** Adds the join to the graph: repartitions, stores, the two side nodes; returns the joined stream. */
    EventStreamImpl<K, VR> wire() {
        GraphBuilder graph = left.graph;
        EventStreamImpl<K, V> leftInput =
                left.keyChanged ? left.through(name + "-left", keySerde, valueSerde, -1) : left;
        EventStreamImpl<K, VO> rightInput =
                right.keyChanged ? right.through(name + "-right", keySerde, otherValueSerde, -1) : right;
        String leftStore = name + "-left";
        String rightStore = name + "-right";
        String leftUnmatched = leftOuter ? leftStore + "-unmatched" : null;
        String rightUnmatched = rightOuter ? rightStore + "-unmatched" : null;
        Set<String> stores = addStores(graph, leftStore, rightStore, leftUnmatched, rightUnmatched);
        graph.useSerde(keySerde, true);
        graph.useSerde(valueSerde, false);
        graph.useSerde(otherValueSerde, false);
        String lateTopic = joined.lateTopic().orElse(null);
        BufferedRecordCodec<K, V> leftCodec = new BufferedRecordCodec<>(leftStore, keySerde, valueSerde);
        BufferedRecordCodec<K, VO> rightCodec = new BufferedRecordCodec<>(rightStore, keySerde, otherValueSerde);
        StreamStreamJoinProcessor.Side<K, V, VO, VR> leftSide = new StreamStreamJoinProcessor.Side<>(
                leftStore,
                leftUnmatched,
                rightStore,
                before,
                after,
                lateness,
                leftOuter,
                rightOuter,
                keySerde,
                leftCodec,
                rightCodec,
                joiner,
                lateTopic);
        StreamStreamJoinProcessor.Side<K, VO, V, VR> rightSide = new StreamStreamJoinProcessor.Side<>(
                rightStore,
                rightUnmatched,
                leftStore,
                after,
                before,
                lateness,
                rightOuter,
                leftOuter,
                keySerde,
                rightCodec,
                leftCodec,
                (r, l) -> joiner.apply(l, r),
                lateTopic);
        Set<String> outputs = lateTopic == null ? Set.of() : Set.of(lateTopic);
        String leftNode = graph.addNode(
                name + "-left", leftInput.nodes, () -> new StreamStreamJoinProcessor<>(leftSide), stores, outputs);
        String rightNode = graph.addNode(
                name + "-right", rightInput.nodes, () -> new StreamStreamJoinProcessor<>(rightSide), stores, outputs);
        return new EventStreamImpl<>(graph, List.of(leftNode, rightNode), keySerde, null, false);
    }

    /**
     * Registers both buffers, with a changelog that keeps a record as long as a segment may hold it, and the
     * outer sides' indexes of unmatched records; returns every store the two nodes share.
     */
    private Set<String> addStores(
            GraphBuilder graph,
            String leftStore,
            String rightStore,
            @Nullable String leftUnmatched,
            @Nullable String rightUnmatched) {
        long bufferRetention = StreamStreamJoinProcessor.bufferChangelogRetention(before, after, lateness);
        List<String> buffers = List.of(leftStore, rightStore);
        Set<String> stores = new LinkedHashSet<>(buffers);
        if (leftUnmatched != null) {
            stores.add(leftUnmatched);
        }
        if (rightUnmatched != null) {
            stores.add(rightUnmatched);
        }
        for (String store : stores) {
            graph.addStore(
                    new StoreSpec(store, joined.storeType(), true, buffers.contains(store) ? bufferRetention : -1));
        }
        return stores;
    }
}
