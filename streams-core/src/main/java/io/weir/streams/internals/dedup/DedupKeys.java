package io.weir.streams.internals.dedup;

import io.weir.streams.internals.state.KeyTimeKeys;

import java.nio.ByteBuffer;

/**
 * Store keys of the deduplication operator: {@code [key length: int][key bytes][id length: int][id
 * bytes][event time: 8, sign-flipped]}, one per record that passed. Key and id first, so the records
 * that passed with one key and id are one range, ordered by event time: finding a first record within
 * an interval of event time is one bounded range scan.
 */
final class DedupKeys {

    private DedupKeys() {}

    /** {@code [key length][key][id length][id]}: what every entry of this key and id starts with. */
    static byte[] prefix(byte[] key, byte[] id) {
        return ByteBuffer.allocate(8 + key.length + id.length)
                .putInt(key.length)
                .put(key)
                .putInt(id.length)
                .put(id)
                .array();
    }

    /** The entry of a record of this key and id at {@code time}; also the scan bound for that time. */
    static byte[] at(byte[] prefix, long time) {
        return KeyTimeKeys.at(prefix, time);
    }
}
