package io.weir.streams.internals.window;

import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.time.Window;
import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * Which windows a record belongs to, for {@link WindowAggregateProcessor}: the one part of a
 * windowed aggregation that differs between window kinds. Fixed windows ({@link FixedWindowAssigner}:
 * tumbling, hopping; {@link GlobalWindowAssigner}) follow from the event time alone; sliding windows
 * ({@link SlidingWindowAssigner}) also depend on the key's other records, which the assigner keeps;
 * session windows ({@link SessionWindowAssigner}) merge, and the assigner keeps the index of each
 * key's sessions.
 *
 * <p>Per record the operator calls {@link #assign}, then for each assignment it accepts (not too late)
 * {@link #accepted}, then {@link #windowsCreatedBy} and {@link #offered}. One instance per task;
 * single-threaded. Made by {@link WindowAssigners}.
 */
public interface WindowAssigner<K, V, A> {

    default void init(ProcessorContext context) {}

    /** The windows a record of {@code key} at event time {@code t} goes to, oldest first. */
    List<WindowAssignment> assign(K key, byte[] keyBytes, long t);

    /** The operator accepted {@code assignment} (the record was not too late for its window): apply it. */
    default void accepted(byte[] keyBytes, WindowAssignment assignment) {}

    /**
     * The windows a record at {@code t} brings into existence without belonging to them (a sliding
     * window's right window); asked right after {@link #assign} for the same record.
     */
    default List<Window> windowsCreatedBy(long t) {
        return List.of();
    }

    /**
     * The aggregate {@code window} starts from when it holds no state yet (before the record is
     * added): the aggregation's initial value, unless the window covers records the assigner keeps.
     */
    default @Nullable A initial(K key, Window window, Aggregation<K, V, A> aggregation) {
        return aggregation.initial();
    }

    /** The record was offered to its windows (some may have refused it) while the watermark was {@code watermark}. */
    default void offered(byte[] keyBytes, Record<K, V> record, long watermark) {}

    /** The watermark reached {@code watermark}: drop what no window can need any more. */
    default void purge(long watermark) {}

    /**
     * Whether the assigner must hear of every window that closes ({@link #closed}); the operator then
     * visits closing windows one by one instead of deleting them with one range delete.
     */
    default boolean tracksWindows() {
        return false;
    }

    /** {@code window} of the key {@code keyBytes} closed; its state is gone. */
    default void closed(byte[] keyBytes, Window window) {}
}
