package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * q12, processing-time windows: the bids of each bidder per tumbling window of {@value #WINDOW_MS} ms of
 * processing time, emitted as {@code [count, window start, window end]} keyed by bidder once the window's
 * time has passed on the wall clock. Both libraries window by event time only, so both are written as their
 * users write processing-time windows: a processor per bidder holding the open window's count, in Weir
 * with a processing-time timer at the window's end, in Kafka Streams with a wall-clock punctuation that
 * emits the windows that have ended.
 *
 * <p>Which window a bid falls in depends on when the engine processes it, so the output is checked as
 * {@link OutputShape#SUMMED}: each bidder's counts must add up to its bids.
 */
final class ProcessingTimeWindows {

    static final long WINDOW_MS = 10_000;

    private static final String STORE = "q12-windows";
    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<long[]> ARRAYS = LongArraySerde.INSTANCE;
    private static final Serde<Bid> BIDS = NexmarkSerdes.bid();

    /** How often Kafka Streams' punctuation looks for windows that ended. */
    private static final Duration PUNCTUATION = Duration.ofSeconds(1);

    private ProcessingTimeWindows() {}

    static NexmarkQuery<Long, long[]> query() {
        return new NexmarkQuery<>(
                "q12",
                "processing-time windows: bids per bidder per 10 s of processing time",
                OutputShape.SUMMED,
                LONGS,
                ARRAYS,
                (builder, sources, output) -> sources.bids(builder)
                        .groupBy((auction, bid) -> bid.bidder(), Grouped.with(LONGS, BIDS))
                        .process(
                                WeirCounter::new,
                                Materialized.<Long, long[]>as(STORE)
                                        .withKeySerde(LONGS)
                                        .withValueSerde(ARRAYS))
                        .to(output, Produced.with(LONGS, ARRAYS)),
                (builder, sources, output) -> {
                    builder.addStateStore(
                            Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), LONGS, ARRAYS));
                    sources.bids(builder)
                            .selectKey((auction, bid) -> bid.bidder())
                            .repartition(org.apache.kafka.streams.kstream.Repartitioned.with(LONGS, BIDS))
                            .process(KafkaStreamsCounter::new, STORE)
                            .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, ARRAYS));
                },
                (events, watermark) -> {
                    Map<Long, Long> bids = new TreeMap<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            bids.merge(b.bidder(), 1L, Long::sum);
                        }
                    }
                    List<KeyValue<Long, long[]>> totals = new ArrayList<>();
                    bids.forEach((bidder, count) -> totals.add(KeyValue.pair(bidder, new long[] {count})));
                    return totals;
                });
    }

    private static long windowStart(long time) {
        return Math.floorDiv(time, WINDOW_MS) * WINDOW_MS;
    }

    /** A bidder's open window, {@code [count, start]}, with one more bid. */
    private static long[] counted(long[] open) {
        return new long[] {open[0] + 1, open[1]};
    }

    private static long[] result(long[] open) {
        return new long[] {open[0], open[1], open[1] + WINDOW_MS};
    }

    /** Weir's counter: one timer per bidder with an open window, at the window's end. */
    private static final class WeirCounter implements KeyedProcessor<Long, Bid, Long, long[]> {

        @Override
        public void process(Long bidder, Bid bid, KeyedProcessorContext<Long, Long, long[]> context) {
            KeyValueStore<Long, long[]> windows = context.store(STORE);
            long now = context.processingTime();
            long[] open = windows.get(bidder);
            if (open != null && open[1] + WINDOW_MS <= now) {
                // Its timer is due but has not fired yet (timers fire between batches).
                context.forward(bidder, result(open));
                context.deleteTimer(TimeDomain.PROCESSING_TIME, open[1] + WINDOW_MS);
                open = null;
            }
            if (open == null) {
                open = new long[] {0, windowStart(now)};
                context.registerTimer(TimeDomain.PROCESSING_TIME, open[1] + WINDOW_MS);
            }
            windows.put(bidder, counted(open));
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<Long, Long, long[]> context) {
            KeyValueStore<Long, long[]> windows = context.store(STORE);
            long[] open = windows.get(context.currentKey());
            if (open != null) {
                context.forward(context.currentKey(), result(open));
                windows.delete(context.currentKey());
            }
        }
    }

    /** Kafka Streams' counter: a wall-clock punctuation emits and drops the windows that ended. */
    private static final class KafkaStreamsCounter implements Processor<Long, Bid, Long, long[]> {

        private org.apache.kafka.streams.state.@Nullable KeyValueStore<Long, long[]> windows;
        private @Nullable ProcessorContext<Long, long[]> context;

        @Override
        public void init(ProcessorContext<Long, long[]> context) {
            this.context = context;
            org.apache.kafka.streams.state.KeyValueStore<Long, long[]> store = context.getStateStore(STORE);
            this.windows = store;
            context.schedule(PUNCTUATION, PunctuationType.WALL_CLOCK_TIME, now -> {
                List<KeyValue<Long, long[]>> ended = new ArrayList<>();
                try (KeyValueIterator<Long, long[]> all = store.all()) {
                    while (all.hasNext()) {
                        var entry = all.next();
                        if (entry.value[1] + WINDOW_MS <= now) {
                            ended.add(KeyValue.pair(entry.key, entry.value));
                        }
                    }
                }
                for (KeyValue<Long, long[]> window : ended) {
                    context.forward(new Record<>(window.key(), result(window.value()), now));
                    store.delete(window.key());
                }
            });
        }

        @Override
        public void process(Record<Long, Bid> record) {
            var store = Objects.requireNonNull(windows);
            var ctx = Objects.requireNonNull(context);
            long now = ctx.currentSystemTimeMs();
            long[] open = store.get(record.key());
            if (open != null && open[1] + WINDOW_MS <= now) {
                ctx.forward(new Record<>(record.key(), result(open), now));
                open = null;
            }
            if (open == null) {
                open = new long[] {0, windowStart(now)};
            }
            store.put(record.key(), counted(open));
        }
    }
}
