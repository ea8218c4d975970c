package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;

import java.util.List;

/**
 * Which windows a record belongs to, for {@link WindowAggregateProcessor}. Fixed windows (tumbling,
 * hopping) depend on the event time alone; sliding windows also on the key's other records, which
 * the function keeps itself.
 */
interface WindowFunction<K, V, A> {

    default void init(ProcessorContext context) {
    }

    /** The windows a record of {@code key} at event time {@code t} belongs to, oldest first. */
    List<Window> windowsFor(K key, byte[] keyBytes, long t);

    /**
     * The windows a record at {@code t} brings into existence without belonging to them (a sliding
     * window's right window); asked right after {@link #windowsFor} for the same record.
     */
    default List<Window> windowsCreatedBy(long t) {
        return List.of();
    }

    /** The aggregate {@code window} starts from when it holds no state yet (before this record is added). */
    A initial(K key, Window window);

    /** The record was offered to its windows (some may have refused it) while the watermark was {@code watermark}. */
    default void offered(byte[] keyBytes, Record<K, V> record, long watermark) {
    }

    /** The watermark reached {@code watermark}: drop what no window can need any more. */
    default void purge(long watermark) {
    }
}
