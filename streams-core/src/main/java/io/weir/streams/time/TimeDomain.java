package io.weir.streams.time;

/** The two clocks a timer can follow. */
public enum TimeDomain {
    /** The watermark: a timer at {@code T} fires once the watermark reaches {@code T} ({@code W >= T}). */
    EVENT_TIME,
    /** The wall clock of the processing instance (virtual time in the TestDriver). */
    PROCESSING_TIME
}
