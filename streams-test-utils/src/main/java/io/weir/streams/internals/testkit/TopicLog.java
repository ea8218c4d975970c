package io.weir.streams.internals.testkit;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An in-memory topic of the TestDriver: partitions with offsets, and one list of every record in
 * the order it was appended (what readers iterate). Single-threaded.
 */
public final class TopicLog {

    /** A record as written, with its partition and offset. */
    public record Entry(int partition, long offset, byte[] key, byte[] value, Headers headers, long timestamp) {
    }

    private final String name;
    private final int partitions;
    private final long[] nextOffsets;
    private final List<Entry> entries = new ArrayList<>();

    public TopicLog(String name, int partitions) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("Topic '" + name + "' needs at least one partition, got " + partitions);
        }
        this.name = name;
        this.partitions = partitions;
        this.nextOffsets = new long[partitions];
    }

    /**
     * Appends a record; a null partition is chosen from the key as Kafka's default partitioner does
     * (murmur2 of the key bytes), and keyless records go to partition 0 so runs are reproducible.
     */
    public Entry append(Integer partition, byte[] key, byte[] value, Headers headers, long timestamp) {
        int p = partition != null ? partition : key == null ? 0 : Utils.toPositive(Utils.murmur2(key)) % partitions;
        if (p < 0 || p >= partitions) {
            throw new IllegalArgumentException("Topic '" + name + "' has partitions 0.." + (partitions - 1) + ", not " + p);
        }
        Entry entry = new Entry(p, nextOffsets[p]++, key, value, headers, timestamp);
        entries.add(entry);
        return entry;
    }

    public String name() {
        return name;
    }

    public int partitions() {
        return partitions;
    }

    /** Every record appended so far, in append order. */
    public List<Entry> entries() {
        return Collections.unmodifiableList(entries);
    }
}
