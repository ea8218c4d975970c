package io.weir.examples;

import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serde;

import java.time.Duration;

/**
 * Drops repeats of an event, on a stream keyed by event id: the first record of an id passes, later ones
 * with the same id are dropped for {@code retention} of event time after the first one's event time.
 *
 * <p>The id is remembered in a logged key-value store (so a restarted or moved task still knows it)
 * and forgotten by an event-time timer once the watermark passes {@code firstEventTime + retention}.
 * A repeat that arrives after that passes again. For a windowed aggregation downstream, that is harmless
 * when {@code retention ≥ window size + allowed lateness} and the aggregation's watermark is at least this
 * processor's: by then the window the repeat falls into is past its allowed lateness, so the aggregation
 * drops it as late (to its side output, if it has one). When a repartition lies between the two (the
 * usual case, since this processor is keyed by event id), the aggregation's watermark is the minimum over
 * the upstream tasks and may trail: add the trail you tolerate to the retention.
 */
public final class DedupByEventId<K, V> implements KeyedProcessor<K, V, K, V> {

    private final String storeName;
    private final long retentionMs;

    /**
     * @param storeName the store of seen ids, created by {@link #store(String, Serde)} and given to
     *                  {@code process(...)} with this processor
     */
    public DedupByEventId(String storeName, Duration retention) {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive, was " + retention);
        }
        this.storeName = storeName;
        this.retentionMs = retention.toMillis();
    }

    /** The store of seen ids (event id to the first copy's event time) that this processor needs. */
    public static <K> Materialized<K, Long> store(String name, Serde<K> idSerde) {
        return Materialized.<K, Long>as(name).withKeySerde(idSerde).withValueSerde(Serdes.Long());
    }

    @Override
    public void process(K id, V value, KeyedProcessorContext<K, K, V> context) {
        KeyValueStore<K, Long> seen = context.store(storeName);
        if (seen.get(id) != null) {
            return;
        }
        seen.put(id, context.eventTime());
        context.registerTimer(TimeDomain.EVENT_TIME, context.eventTime() + retentionMs);
        context.forward(id, value);
    }

    @Override
    public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<K, K, V> context) {
        context.<K, Long>store(storeName).delete(context.currentKey());
    }
}
