package io.weir.benchmarks;

import io.weir.streams.state.StoreType;
import org.apache.kafka.streams.kstream.Materialized;

import java.util.Arrays;
import java.util.stream.Collectors;

/** An engine, a store type and what the engine emits: one row of the benchmark's table. */
enum Variant {
    WEIR_ROCKSDB("weir-rocksdb", Store.ROCKSDB, "on-time pane"),
    WEIR_IN_MEMORY("weir-inmemory", Store.IN_MEMORY, "on-time pane"),
    KS_ROCKSDB_CLOSE("ks-rocksdb-close", Store.ROCKSDB, "onWindowClose"),
    KS_ROCKSDB_UPDATE("ks-rocksdb-update", Store.ROCKSDB, "every update"),
    KS_IN_MEMORY_CLOSE("ks-inmemory-close", Store.IN_MEMORY, "onWindowClose"),
    KS_IN_MEMORY_UPDATE("ks-inmemory-update", Store.IN_MEMORY, "every update");

    enum Store { ROCKSDB, IN_MEMORY }

    private final String id;
    private final Store store;
    private final String emits;

    Variant(String id, Store store, String emits) {
        this.id = id;
        this.store = store;
        this.emits = emits;
    }

    /** The name on the command line. */
    String id() {
        return id;
    }

    Store store() {
        return store;
    }

    String emits() {
        return emits;
    }

    boolean isKafkaStreamsOnWindowClose() {
        return this == KS_ROCKSDB_CLOSE || this == KS_IN_MEMORY_CLOSE;
    }

    boolean isKafkaStreamsEveryUpdate() {
        return this == KS_ROCKSDB_UPDATE || this == KS_IN_MEMORY_UPDATE;
    }

    /** A fresh driver running this variant's topology. */
    Engine open() {
        return switch (this) {
            case WEIR_ROCKSDB -> new WeirEngine(StoreType.ROCKSDB);
            case WEIR_IN_MEMORY -> new WeirEngine(StoreType.IN_MEMORY);
            case KS_ROCKSDB_CLOSE -> new KafkaStreamsEngine(Materialized.StoreType.ROCKS_DB, true);
            case KS_ROCKSDB_UPDATE -> new KafkaStreamsEngine(Materialized.StoreType.ROCKS_DB, false);
            case KS_IN_MEMORY_CLOSE -> new KafkaStreamsEngine(Materialized.StoreType.IN_MEMORY, true);
            case KS_IN_MEMORY_UPDATE -> new KafkaStreamsEngine(Materialized.StoreType.IN_MEMORY, false);
        };
    }

    static Variant byId(String id) {
        return Arrays.stream(values()).filter(v -> v.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + id + "'; the variants are "
                        + Arrays.stream(values()).map(Variant::id).collect(Collectors.joining(", "))));
    }
}
