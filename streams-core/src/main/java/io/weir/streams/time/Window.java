package io.weir.streams.time;

/**
 * An event-time interval {@code [start, end)} in epoch milliseconds: a record with event time
 * {@code t} belongs to it when {@code start <= t < end}. The window's last instant is {@code end - 1};
 * its on-time pane fires when the watermark reaches it.
 *
 * @param start the first millisecond in the window, inclusive
 * @param end the end, exclusive; greater than {@code start}
 */
public record Window(long start, long end) {

    /**
     * Checks that the window is not empty.
     *
     * @param start the first millisecond in the window, inclusive
     * @param end the end, exclusive
     * @throws IllegalArgumentException if {@code end <= start}
     */
    public Window {
        if (end <= start) {
            throw new IllegalArgumentException("A window must end after it starts: [" + start + ", " + end + ")");
        }
    }

    /**
     * The last millisecond inside the window, {@code end - 1}.
     *
     * @return {@code end - 1}
     */
    public long maxTimestamp() {
        return end - 1;
    }

    @Override
    public String toString() {
        return "[" + start + ", " + end + ")";
    }
}
