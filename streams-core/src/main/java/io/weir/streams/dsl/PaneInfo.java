package io.weir.streams.dsl;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Which result of its window a record is, carried in the headers of every windowed result:
 * {@value #TIMING_HEADER} ({@code EARLY}, {@code ON_TIME} or {@code LATE}), {@value #INDEX_HEADER}
 * (0 for a window's first pane, then 1, 2, ...), {@value #FINAL_HEADER} ({@code true} when no later
 * pane of the window can follow: the on-time pane of a window without allowed lateness, or any pane
 * emitted once the watermark has passed the window's end plus its allowed lateness) and, on
 * retractions only, {@value #RETRACTION_HEADER}{@code =true}. A pane is marked final only when it is
 * known to be the last as it is emitted: a window whose last early pane already held its value emits
 * no on-time pane, and a late pane may turn out to be the last; consumers that need a final marker for
 * every window use {@link WindowedStream#finalResultsOnly()}.
 *
 * <p>A <b>retraction</b> (refinement {@link Refinement#ACCUMULATING_AND_RETRACTING}) takes back the
 * window's previous pane: same key and window, the previous pane's value. It comes right before the
 * pane that replaces it and carries that pane's timing, index and final flag; a retraction of a
 * session that was merged away has no pane after it and is final.
 *
 * @param timing when the pane was emitted relative to the watermark passing its window's end
 * @param index the pane's position among its window's panes: 0 for the first, then 1, 2, ...
 * @param isFinal whether no later pane of the window can follow
 * @param isRetraction whether the record takes back the window's previous pane rather than being a pane
 */
public record PaneInfo(Timing timing, long index, boolean isFinal, boolean isRetraction) {

    /** Header: the pane's {@link Timing} name. */
    public static final String TIMING_HEADER = "weir.pane.timing";
    /** Header: the pane's index in its window, a decimal number from 0. */
    public static final String INDEX_HEADER = "weir.pane.index";
    /** Header: {@code true} when no later pane of the window can follow, else {@code false}. */
    public static final String FINAL_HEADER = "weir.pane.final";
    /** Header, on retractions only: {@code true}. */
    public static final String RETRACTION_HEADER = "weir.pane.retraction";

    /** When a pane was emitted relative to the watermark passing its window's end. */
    public enum Timing {
        /** Before the watermark reached the window's end (early firings). */
        EARLY,
        /**
         * When the watermark reached the window's end; with {@link Trigger#atWindowClose()}, the one
         * pane of the window, when it closes.
         */
        ON_TIME,
        /** After that, for late records within the allowed lateness. */
        LATE
    }

    /**
     * A pane that is not a retraction.
     *
     * @param timing when the pane was emitted relative to the watermark passing its window's end
     * @param index the pane's position among its window's panes, from 0
     * @param isFinal whether no later pane of the window can follow
     */
    public PaneInfo(Timing timing, long index, boolean isFinal) {
        this(timing, index, isFinal, false);
    }

    /**
     * This pane's info on the retraction that precedes it.
     *
     * @return the same timing, index and final flag, marked as a retraction
     */
    public PaneInfo asRetraction() {
        return new PaneInfo(timing, index, isFinal, true);
    }

    /**
     * The pane info in {@code headers}, if the record is a windowed result.
     *
     * @param headers a record's headers
     * @return the pane info they carry; empty when the record is not a windowed result
     */
    public static Optional<PaneInfo> from(Headers headers) {
        Header timing = headers.lastHeader(TIMING_HEADER);
        Header index = headers.lastHeader(INDEX_HEADER);
        Header last = headers.lastHeader(FINAL_HEADER);
        if (timing == null || index == null || last == null) {
            return Optional.empty();
        }
        Header retraction = headers.lastHeader(RETRACTION_HEADER);
        return Optional.of(new PaneInfo(
                Timing.valueOf(text(timing)),
                Long.parseLong(text(index)),
                Boolean.parseBoolean(text(last)),
                retraction != null && Boolean.parseBoolean(text(retraction))));
    }

    /**
     * Adds this pane's headers to {@code headers} and returns them.
     *
     * @param headers the headers to add to
     * @return {@code headers}, with the pane's headers added
     */
    public Headers writeTo(Headers headers) {
        headers.add(TIMING_HEADER, timing.name().getBytes(StandardCharsets.UTF_8));
        headers.add(INDEX_HEADER, Long.toString(index).getBytes(StandardCharsets.UTF_8));
        headers.add(FINAL_HEADER, Boolean.toString(isFinal).getBytes(StandardCharsets.UTF_8));
        if (isRetraction) {
            headers.add(RETRACTION_HEADER, "true".getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static String text(Header header) {
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
