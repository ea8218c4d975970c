package io.weir.streams.state;

import io.weir.streams.time.Window;
import org.jspecify.annotations.Nullable;

/**
 * One row of a window store: a key, a window and the window's current aggregate. The value is null
 * only for a reduce under discarding refinement whose window has taken nothing since its last pane.
 *
 * @param <K> the key type
 * @param <V> the aggregate type
 * @param key the grouping key
 * @param window the window, {@code [start, end)}
 * @param value the window's current aggregate; null for a discarding reduce's window with nothing new since its
 *     last pane
 */
public record WindowEntry<K, V>(
        K key, Window window, @Nullable V value) {}
