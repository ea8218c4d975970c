package io.weir.streams.internals.state;

/** One key and value of a {@link BytesStore}; the arrays are not copied and must not be changed. */
public record ByteEntry(byte[] key, byte[] value) {}
