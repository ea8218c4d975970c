package io.weir.streams.dsl;

/**
 * A table every instance holds whole ({@code StreamsBuilder.globalTable}): all partitions of its topic,
 * kept current by a thread of the instance's own, outside every task. Tasks read it, never write it;
 * a keyed processor reads it with {@code KeyedProcessorContext.globalTable(storeName())}.
 */
public interface GlobalTable<K, V> {

    /**
     * The name of the table's store, by which processors read it.
     *
     * @return the store's name, as given with {@code Materialized.as} or {@code <topic>-global}
     */
    String storeName();
}
