package io.weir.streams.internals.window;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.time.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * Session windows: the merging assigner. A record at {@code t} opens {@code [t, t + gap)}, which
 * merges with every unsealed session of its key that it overlaps or touches, unless the merged
 * session would exceed the length cap: then the record starts a session of its own, and once it is
 * accepted the sessions it touched are sealed (they take no more records). Whether the record is too
 * late is judged by the operator against the session it would end up in, before anything changes.
 *
 * <p>The sessions merged into a new window lose their identity (and, retracting, their panes); a
 * session whose window the result already is keeps its own, pane count included: a key never has two
 * sessions with the same window. Each key's sessions are found through a {@link SessionIndex}, kept
 * in step with the window store (both change in the same commit), so the operator reports every
 * session it closes ({@link #tracksWindows()}).
 */
final class SessionWindowAssigner<K, V, A> implements WindowAssigner<K, V, A> {

    private final long gap;
    private final long maxLength;
    private final String indexStoreName;
    private SessionIndex sessions;
    private Counter sessionsMerged;

    /**
     * {@code maxLength}: the session length cap ({@code Long.MAX_VALUE}: none); {@code indexStoreName}:
     * the logged store of the session index.
     */
    SessionWindowAssigner(long gap, long maxLength, String indexStoreName) {
        this.gap = gap;
        this.maxLength = maxLength;
        this.indexStoreName = indexStoreName;
    }

    @Override
    public void init(ProcessorContext context) {
        sessions = new SessionIndex(context.stores().cache(indexStoreName), maxLength);
        sessionsMerged = context.metrics().counter(context.nodeName(), WeirMetrics.SESSIONS_MERGED);
    }

    @Override
    public List<WindowAssignment> assign(K key, byte[] keyBytes, long t) {
        Window own = new Window(t, TimeMath.plus(t, gap));
        List<SessionIndex.Session> overlapping = sessions.overlapping(keyBytes, own.start(), own.end());
        List<Window> live = new ArrayList<>(2);
        for (SessionIndex.Session s : overlapping) {
            if (!s.sealed()) {
                live.add(s.window());
            }
        }
        Window merged = cover(own, live);
        List<Window> sealed = List.of();
        if (merged.end() - merged.start() > maxLength) {
            merged = own;
            sealed = List.copyOf(live);
            live.clear();
        }
        Window target = merged;
        boolean exists = overlapping.stream().anyMatch(s -> s.window().equals(target));
        live.remove(target);
        return List.of(new WindowAssignment(target, live, sealed, exists));
    }

    @Override
    public void accepted(byte[] keyBytes, WindowAssignment assignment) {
        for (Window full : assignment.sealed()) {
            sessions.put(keyBytes, full, true);
        }
        for (Window old : assignment.merged()) {
            sessions.remove(keyBytes, old);
        }
        if (!assignment.mayExist()) {
            sessions.put(keyBytes, assignment.window(), false);
        }
        int combined = assignment.merged().size() + (assignment.mayExist() ? 1 : 0);
        if (combined > 1) {
            sessionsMerged.increment(combined - 1);
        }
    }

    @Override
    public boolean tracksWindows() {
        return true;
    }

    @Override
    public void closed(byte[] keyBytes, Window window) {
        sessions.remove(keyBytes, window);
    }

    private static Window cover(Window first, List<Window> others) {
        long start = first.start();
        long end = first.end();
        for (Window w : others) {
            start = Math.min(start, w.start());
            end = Math.max(end, w.end());
        }
        return new Window(start, end);
    }
}
