package io.weir.streams.internals.global;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.state.InMemoryBytesStore;
import io.weir.streams.internals.state.RocksDbBytesStore;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.topology.GlobalTableSpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a store keeps beside its data, in RocksDB's {@value RocksDbBytesStore#METADATA_COLUMN_FAMILY} column
 * family, byte for byte: a task store's changelog offset and changelog topic id ({@link ChangelogOffset}),
 * a global store's next offset per partition. A store on disk outlives the release that wrote it; the next
 * one reads where to resume its restore from it. Each fixture record: the metadata key in UTF-8, then the
 * value.
 */
class StoreMetadataGoldenTest {

    private static final Uuid TOPIC_ID = new Uuid(0x0123456789abcdefL, -2L);
    private static final GlobalTableSpec SPEC = new GlobalTableSpec(
            "customers-global", "customers", Consumed.with(Serdes.String(), Serdes.String()), StoreType.ROCKSDB);

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aTaskStoresChangelogPositionIsTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = GoldenBytes.of("changelog-offset")
                .add(
                        "the next changelog offset the store does not hold: 1234567",
                        utf8(ChangelogOffset.KEY),
                        ChangelogOffset.bytes(1_234_567))
                .add("the changelog's topic id", utf8(ChangelogOffset.TOPIC_ID_KEY), ChangelogOffset.topicId(TOPIC_ID))
                .verify();
        try (InMemoryBytesStore store = InMemoryBytesStore.create("counts")) {
            StoreBatch batch = new StoreBatch();
            stored.forEach(e -> batch.putMetadata(new String(e.field(0), StandardCharsets.UTF_8), e.field(1)));
            store.write(batch);
            assertEquals(1_234_567L, ChangelogOffset.of(store));
            assertEquals(TOPIC_ID, ChangelogOffset.topicIdOf(store));
        }
    }

    @Test
    void aGlobalStoresNextOffsetsAreTheGoldenBytes() {
        List<RocksDbBytesStore> opened = new ArrayList<>();
        List<byte @Nullable []> written = new ArrayList<>();
        try (GlobalStore<?, ?> global = GlobalStore.open(SPEC, dir, (name, d) -> {
            RocksDbBytesStore store = RocksDbBytesStore.open(name, d);
            opened.add(store);
            return store;
        })) {
            global.apply(0, List.of(new GlobalStore.Raw(0, 41, utf8("k"), utf8("v"), new RecordHeaders(), 5)), 42);
            global.apply(7, List.of(), 0);
            written.add(opened.get(0).metadata("global-offset-0"));
            written.add(opened.get(0).metadata("global-offset-7"));
        }
        List<GoldenBytes.Entry> stored = GoldenBytes.of("global-store-offsets")
                .add("partition 0: next offset 42", utf8("global-offset-0"), Objects.requireNonNull(written.get(0)))
                .add("partition 7: next offset 0", utf8("global-offset-7"), Objects.requireNonNull(written.get(1)))
                .verify();
        Path restored = dir.resolve("restored");
        try (RocksDbBytesStore store = RocksDbBytesStore.open(SPEC.storeName(), restored.resolve(SPEC.storeName()))) {
            StoreBatch batch = new StoreBatch();
            stored.forEach(e -> batch.putMetadata(new String(e.field(0), StandardCharsets.UTF_8), e.field(1)));
            store.write(batch);
        }
        try (GlobalStore<?, ?> reopened = GlobalStore.open(SPEC, restored, RocksDbBytesStore::open)) {
            assertEquals(42L, reopened.nextOffset(0));
            assertEquals(0L, reopened.nextOffset(7));
        }
    }
}
