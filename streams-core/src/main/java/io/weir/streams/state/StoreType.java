package io.weir.streams.state;

/** Where a state store keeps its data. Both sit behind the same per-task write-back cache. */
public enum StoreType {
    /** RocksDB on local disk under {@code state.dir}: state larger than the heap, fast restarts. */
    ROCKSDB,
    /** Sorted in-heap maps: fastest, bounded by the heap, rebuilt from the changelog on restart. */
    IN_MEMORY
}
