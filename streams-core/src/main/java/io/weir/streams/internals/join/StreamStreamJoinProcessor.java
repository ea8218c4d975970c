package io.weir.streams.internals.join;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.time.Window;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;

/**
 * One side of a stream–stream join (the topology has one node per side; they share the two sides'
 * buffers, {@link JoinBuffer}s, since both run in the same task). Seen from this side, a record {@code x}
 * matches the other side's records {@code o} of its key with {@code x.t - before <= o.t <= x.t + after}.
 *
 * <p>A record {@code x}: with a null key or beyond the maximum future skew, handled by its {@link EventTimeGate};
 * else joined with every partner the other buffer still holds, each pair emitted now with event time
 * {@code max(x.t, o.t)}, x's headers and key (a pair is emitted once: by its second record). While its
 * window can still take partners to come (the watermark is below {@code x.t + after + allowedLateness})
 * it is kept in this side's buffer until then; when this side is outer and it found no partner it is
 * emitted then with null for the other side, at its own event time, and never followed by a pair. A
 * record whose window has closed on arrival joins the partners still held (as Kafka Streams and Flink
 * SQL's interval join do) and is not kept; only one that joins nothing is late: padded with null at once
 * on an outer side, else sent to the late-data side output.
 *
 * <p>Exactness: a record that arrives while the watermark is below {@code x.t + allowedLateness} finds
 * every partner it has: a partner {@code o} leaves the other buffer when the watermark reaches {@code o.t +
 * before + allowedLateness}, and {@code o.t >= x.t - before} puts that at or after {@code x.t +
 * allowedLateness}. A later record finds those of its partners not yet past their own window's end.
 */
public final class StreamStreamJoinProcessor<K, V, VO, VR> implements Processor<K, V> {

    /**
     * One side's settings, seen from that side.
     *
     * @param unmatchedStore an outer side's index of its unmatched records; null for an inner side
     * @param outer       whether this side is outer: its records that found no partner are emitted with null
     * @param otherOuter  whether the other side is outer, so this side marks the partners it finds
     * @param joiner      this side's value and the other's (null when unmatched) to the result
     */
    public record Side<K, V, VO, VR>(
            String store,
            @Nullable String unmatchedStore,
            String otherStore,
            long before,
            long after,
            long allowedLateness,
            boolean outer,
            boolean otherOuter,
            Serde<K> keySerde,
            BufferedRecordCodec<K, V> codec,
            BufferedRecordCodec<K, VO> otherCodec,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            @Nullable String lateTopic) {}

    private final Side<K, V, VO, VR> side;
    private ProcessorContext context;
    private EventTimeGate gate;
    private LateDataOutput late;
    private JoinBuffer buffer;
    private JoinBuffer other;
    private Serializer<K> keys;
    private Deserializer<K> keyReader;

    /**
     * How long a buffer's changelog keeps a record: a buffer drops whole segments by range deletes, which
     * leave no tombstone in the changelog, so it deletes by time too (processing time, as a window
     * store's), a day after the longest a record is held: the far side of the window, the allowed
     * lateness and a segment.
     */
    public static long bufferChangelogRetention(long before, long after, long allowedLateness) {
        long held = TimeMath.plus(
                TimeMath.plus(Math.max(before, after), allowedLateness), JoinBuffer.segmentMs(before, after));
        return TimeMath.plus(held, Duration.ofDays(1).toMillis());
    }

    public StreamStreamJoinProcessor(Side<K, V, VO, VR> side) {
        this.side = side;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.late = new LateDataOutput(side.lateTopic(), context);
        this.gate = new EventTimeGate(context, late, side.allowedLateness());
        long segmentMs = JoinBuffer.segmentMs(side.before(), side.after());
        String unmatchedStore = side.unmatchedStore();
        this.buffer = JoinBuffer.own(
                context.stores().cache(side.store()),
                unmatchedStore == null ? null : context.stores().cache(unmatchedStore),
                segmentMs,
                TimeMath.plus(side.after(), side.allowedLateness()),
                gate.watermark());
        this.other = JoinBuffer.partners(context.stores().cache(side.otherStore()), segmentMs);
        this.keys = side.keySerde().serializer();
        this.keyReader = side.keySerde().deserializer();
        context.metrics().gauge(context.nodeName(), WeirMetrics.JOIN_BUFFERED_RECORDS, buffer::size);
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        long time = record.timestamp();
        long from = TimeMath.minus(time, side.before());
        long to = TimeMath.plus(time, side.after());
        long watermark = gate.watermark();
        boolean started = watermark != Long.MIN_VALUE;
        // Its window can take no partner still to come: every one would be late.
        boolean closed = gate.closed(to);
        // A partner o is held while the watermark is below o.t + before + allowedLateness (its own window's
        // end, seen from its side); one the buffer still stores past that has had its null result already.
        long heldFrom = started
                ? Math.max(
                        from,
                        TimeMath.plus(
                                TimeMath.minus(watermark, TimeMath.plus(side.before(), side.allowedLateness())), 1))
                : from;
        byte[] key = keys.serialize(side.store(), record.key());
        boolean[] matched = {false};
        other.match(key, heldFrom, to, side.otherOuter(), (otherTime, stored) -> {
            matched[0] = true;
            VO partner = side.otherCodec().decode(stored).value();
            context.forward(new Record<>(
                    record.key(),
                    side.joiner().apply(record.value(), partner),
                    Math.max(time, otherTime),
                    record.headers(),
                    record.source()));
        });
        if (!closed) {
            buffer.add(key, time, side.codec().encode(null, record.value(), record.headers()), matched[0]);
        } else if (!matched[0] && side.outer()) {
            context.forward(new Record<>(
                    record.key(), side.joiner().apply(record.value(), null), time, record.headers(), record.source()));
        } else if (!matched[0]) {
            late.late(record, List.of(new Window(from, TimeMath.plus(to, 1))), false, watermark);
        }
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (!gate.advance(newWatermark)) {
            return;
        }
        buffer.expire(newWatermark, (key, time, stored) -> {
            BufferedRecordCodec.Decoded<K, V> unmatched = side.codec().decode(stored);
            context.forward(new Record<>(
                    keyReader.deserialize(side.store(), key),
                    side.joiner().apply(unmatched.value(), null),
                    time,
                    unmatched.headers(),
                    null));
        });
    }
}
