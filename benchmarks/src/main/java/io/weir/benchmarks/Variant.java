package io.weir.benchmarks;

import io.weir.benchmarks.CountTopologies.KafkaStreamsEmit;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.state.StoreType;
import org.apache.kafka.streams.kstream.Materialized;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * An engine, a windowing, a store type and what the engine emits: one row of the benchmark's table.
 * A Weir variant carries the {@link WeirPanes} applied to its windowed stream, a Kafka Streams variant
 * its {@link KafkaStreamsEmit}; everything else about the topology is the windowing's.
 */
enum Variant {
    WEIR_ROCKSDB("weir-rocksdb", Windowing.TUMBLING, Store.ROCKSDB, "on-time pane", WeirPanes.DEFAULT),
    WEIR_ROCKSDB_EARLY(
            "weir-rocksdb-early",
            Windowing.TUMBLING,
            Store.ROCKSDB,
            "early 1s, accum.",
            WeirPanes.early(Refinement.ACCUMULATING)),
    WEIR_ROCKSDB_DISCARD(
            "weir-rocksdb-discard",
            Windowing.TUMBLING,
            Store.ROCKSDB,
            "early 1s, discard",
            WeirPanes.early(Refinement.DISCARDING)),
    WEIR_ROCKSDB_RETRACT(
            "weir-rocksdb-retract",
            Windowing.TUMBLING,
            Store.ROCKSDB,
            "early 1s, retract",
            WeirPanes.early(Refinement.ACCUMULATING_AND_RETRACTING)),
    WEIR_IN_MEMORY("weir-inmemory", Windowing.TUMBLING, Store.IN_MEMORY, "on-time pane", WeirPanes.DEFAULT),
    WEIR_IN_MEMORY_EARLY(
            "weir-inmemory-early",
            Windowing.TUMBLING,
            Store.IN_MEMORY,
            "early 1s, accum.",
            WeirPanes.early(Refinement.ACCUMULATING)),
    WEIR_IN_MEMORY_RETRACT(
            "weir-inmemory-retract",
            Windowing.TUMBLING,
            Store.IN_MEMORY,
            "early 1s, retract",
            WeirPanes.early(Refinement.ACCUMULATING_AND_RETRACTING)),
    KS_ROCKSDB_CLOSE(
            "ks-rocksdb-close", Windowing.TUMBLING, Store.ROCKSDB, "onWindowClose", KafkaStreamsEmit.ON_WINDOW_CLOSE),
    KS_ROCKSDB_UPDATE("ks-rocksdb-update", Windowing.TUMBLING, Store.ROCKSDB, "every update", KafkaStreamsEmit.UPDATES),
    KS_IN_MEMORY_CLOSE(
            "ks-inmemory-close",
            Windowing.TUMBLING,
            Store.IN_MEMORY,
            "onWindowClose",
            KafkaStreamsEmit.ON_WINDOW_CLOSE),
    KS_IN_MEMORY_UPDATE(
            "ks-inmemory-update", Windowing.TUMBLING, Store.IN_MEMORY, "every update", KafkaStreamsEmit.UPDATES),
    WEIR_ROCKSDB_SESSION(
            "weir-rocksdb-session", Windowing.SESSIONS, Store.ROCKSDB, "on-time + late", WeirPanes.DEFAULT),
    WEIR_ROCKSDB_SESSION_RETRACT(
            "weir-rocksdb-session-retract",
            Windowing.SESSIONS,
            Store.ROCKSDB,
            "on-time+late, retract",
            WeirPanes.onTime(Refinement.ACCUMULATING_AND_RETRACTING)),
    KS_ROCKSDB_SESSION_CLOSE(
            "ks-rocksdb-session-close",
            Windowing.SESSIONS,
            Store.ROCKSDB,
            "onWindowClose",
            KafkaStreamsEmit.ON_WINDOW_CLOSE),
    KS_ROCKSDB_SESSION_UPDATE(
            "ks-rocksdb-session-update", Windowing.SESSIONS, Store.ROCKSDB, "every update", KafkaStreamsEmit.UPDATES);

    enum Store {
        ROCKSDB(StoreType.ROCKSDB, Materialized.StoreType.ROCKS_DB),
        IN_MEMORY(StoreType.IN_MEMORY, Materialized.StoreType.IN_MEMORY);

        private final StoreType weir;
        private final Materialized.StoreType kafkaStreams;

        Store(StoreType weir, Materialized.StoreType kafkaStreams) {
            this.weir = weir;
            this.kafkaStreams = kafkaStreams;
        }
    }

    private final String id;
    private final Windowing windowing;
    private final Store store;
    private final String emits;
    // Records of immutable values, though Error Prone cannot tell.
    @SuppressWarnings("ImmutableEnumChecker")
    private final @Nullable WeirPanes weirPanes;

    private final @Nullable KafkaStreamsEmit kafkaStreamsEmit;

    Variant(String id, Windowing windowing, Store store, String emits, WeirPanes weirPanes) {
        this(id, windowing, store, emits, weirPanes, null);
    }

    Variant(String id, Windowing windowing, Store store, String emits, KafkaStreamsEmit kafkaStreamsEmit) {
        this(id, windowing, store, emits, null, kafkaStreamsEmit);
    }

    Variant(
            String id,
            Windowing windowing,
            Store store,
            String emits,
            @Nullable WeirPanes weirPanes,
            @Nullable KafkaStreamsEmit kafkaStreamsEmit) {
        this.id = id;
        this.windowing = windowing;
        this.store = store;
        this.emits = emits;
        this.weirPanes = weirPanes;
        this.kafkaStreamsEmit = kafkaStreamsEmit;
    }

    /** The name on the command line. */
    String id() {
        return id;
    }

    Windowing windowing() {
        return windowing;
    }

    Store store() {
        return store;
    }

    String emits() {
        return emits;
    }

    boolean isWeir() {
        return weirPanes != null;
    }

    /** The panes of a Weir variant. */
    WeirPanes weirPanes() {
        if (weirPanes == null) {
            throw new IllegalStateException(id + " is not a Weir variant");
        }
        return weirPanes;
    }

    boolean isKafkaStreamsOnWindowClose() {
        return kafkaStreamsEmit == KafkaStreamsEmit.ON_WINDOW_CLOSE;
    }

    boolean isKafkaStreamsEveryUpdate() {
        return kafkaStreamsEmit == KafkaStreamsEmit.UPDATES;
    }

    /** A fresh driver running this variant's topology. */
    Engine open() {
        if (weirPanes != null) {
            return new WeirEngine(
                    windowing.weir(store.weir, weirPanes), windowing.weirStores(), weirPanes.discarding());
        }
        return new KafkaStreamsEngine(
                windowing.kafkaStreams(store.kafkaStreams, Objects.requireNonNull(kafkaStreamsEmit)),
                windowing.kafkaStreamsKeys());
    }

    static Variant byId(String id) {
        return Arrays.stream(values())
                .filter(v -> v.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + id + "'; the variants are "
                        + Arrays.stream(values()).map(Variant::id).collect(Collectors.joining(", "))));
    }
}
