package io.weir.streams.internals.window;

import io.weir.streams.time.Window;

import java.util.List;

/**
 * Where a {@link WindowAssigner} puts a record: the window that takes it and, for merging windows
 * (sessions), the windows it replaces. Nothing changes until the operator has checked that the
 * record is not too late for {@code window} and tells the assigner it was accepted.
 *
 * @param window   the window the record is added to
 * @param merged   windows of the key whose state merges into {@code window} and which then cease to
 *                 exist; empty for windows that never merge
 * @param sealed   windows of the key that take no more records once the record is accepted (a
 *                 session at its length cap)
 * @param mayExist whether {@code window} may already hold state; false when the assigner knows it
 *                 is new, which spares a store lookup
 */
record WindowAssignment(Window window, List<Window> merged, List<Window> sealed, boolean mayExist) {

    /** A window that merges with nothing and may already exist. */
    static WindowAssignment of(Window window) {
        return new WindowAssignment(window, List.of(), List.of(), true);
    }
}
