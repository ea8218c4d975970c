package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;

import java.util.Objects;

final class GroupedStreamImpl<K, V> implements GroupedStream<K, V> {

    private final EventStreamImpl<K, V> stream;

    GroupedStreamImpl(EventStreamImpl<K, V> stream) {
        this.stream = stream;
    }

    @Override
    public WindowedStream<K, V> windowedBy(Windows windows) {
        return new WindowedStreamImpl<>(stream, Objects.requireNonNull(windows, "windows"));
    }
}
