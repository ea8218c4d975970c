package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * The retractions one operator node sends: each carries {@value PaneInfo#RETRACTION_HEADER}{@code =true}
 * and counts as {@value WeirMetrics#RETRACTIONS} under the node. Both kinds of retraction go through
 * here: a pane's, which {@link PaneEmitter} sends with the pane's other headers, and a table change's
 * old value, which a table turned into a stream sends with that header alone. Single-threaded, like its
 * task.
 */
public final class Retractions {

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.UTF_8);

    private final ProcessorContext context;
    private final Counter retractions;

    public Retractions(ProcessorContext context) {
        this.context = context;
        this.retractions = context.metrics().counter(context.nodeName(), WeirMetrics.RETRACTIONS);
    }

    /** Sends {@code record}, a retraction whose headers already mark it (a pane's), and counts it. */
    void forwardMarked(Record<?, ?> record) {
        retractions.increment();
        context.forward(record);
    }

    /**
     * Sends a retraction of {@code value} for {@code key}, stamped {@code timestamp}, with the retraction
     * header as its only header, and counts it.
     */
    // The retracted value is of the stream's value type, which may hold null; NullAway's checks cannot say
    // that a type argument is nullable, so they are off here.
    @SuppressWarnings("NullAway")
    public <K, V> void forward(K key, @Nullable V value, long timestamp, @Nullable SourceInfo source) {
        Headers headers = new RecordHeaders();
        headers.add(PaneInfo.RETRACTION_HEADER, TRUE);
        forwardMarked(new Record<>(key, value, timestamp, headers, source));
    }
}
