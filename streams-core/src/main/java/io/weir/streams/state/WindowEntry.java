package io.weir.streams.state;

import io.weir.streams.dsl.Window;

/** One row of a window store: a key, a window and the window's current aggregate. */
public record WindowEntry<K, V>(K key, Window window, V value) {}
