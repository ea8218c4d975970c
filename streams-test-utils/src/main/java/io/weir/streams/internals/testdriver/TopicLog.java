package io.weir.streams.internals.testdriver;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An in-memory topic of the TestDriver: partitions with offsets, and the records in the order they
 * were appended, which {@link Reader}s go through, each at its own position. Single-threaded.
 *
 * <p>What it holds depends on how it was made:
 * <ul>
 *   <li>{@link #keepingAll}: every record, so a reader made at any time starts at the first one;</li>
 *   <li>{@link #keepingUnread}: the records some reader has not read yet, so that a long run which
 *       keeps reading holds only its backlog. A reader made later starts at the oldest record still
 *       held; until the first reader is made, every record is held;</li>
 *   <li>{@link #offsetsOnly}: no record, only each partition's next offset — for a topic that nobody
 *       can read, such as an input topic, whose records would otherwise pile up for nothing.</li>
 * </ul>
 */
public final class TopicLog {

    /**
     * A record as written, with its partition and offset, and the watermark of the task that wrote it
     * when it wrote it ({@code Long.MIN_VALUE} for a piped record or before the task's first watermark).
     */
    public record Entry(
            int partition,
            long offset,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp,
            long watermark) {}

    private enum Retention {
        ALL,
        UNREAD,
        NONE
    }

    private final String name;
    private final int partitions;
    private final long[] nextOffsets;
    private final Retention retention;
    private final ArrayList<Entry> held = new ArrayList<>();
    private final List<Reader> readers = new ArrayList<>();
    /** How many records, all older than the held ones, were dropped: the position of {@code held.get(0)}. */
    private long dropped;

    private TopicLog(String name, int partitions, Retention retention) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("Topic '" + name + "' needs at least one partition, got " + partitions);
        }
        this.name = name;
        this.partitions = partitions;
        this.nextOffsets = new long[partitions];
        this.retention = retention;
    }

    public static TopicLog keepingAll(String name, int partitions) {
        return new TopicLog(name, partitions, Retention.ALL);
    }

    public static TopicLog keepingUnread(String name, int partitions) {
        return new TopicLog(name, partitions, Retention.UNREAD);
    }

    public static TopicLog offsetsOnly(String name, int partitions) {
        return new TopicLog(name, partitions, Retention.NONE);
    }

    /**
     * Appends a record; a null partition is chosen from the key as Kafka's default partitioner does
     * (murmur2 of the key bytes), and keyless records go to partition 0 so runs are reproducible.
     *
     * @param watermark the writing task's watermark, or {@code Long.MIN_VALUE}
     */
    public Entry append(
            @Nullable Integer partition,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp,
            long watermark) {
        int p = partition != null ? partition : key == null ? 0 : Utils.toPositive(Utils.murmur2(key)) % partitions;
        if (p < 0 || p >= partitions) {
            throw new IllegalArgumentException(
                    "Topic '" + name + "' has partitions 0.." + (partitions - 1) + ", not " + p);
        }
        Entry entry = new Entry(p, nextOffsets[p]++, key, value, headers, timestamp, watermark);
        if (retention != Retention.NONE) {
            held.add(entry);
        }
        return entry;
    }

    public String name() {
        return name;
    }

    public int partitions() {
        return partitions;
    }

    /**
     * Every record ever written to {@code partition}, in offset order, for replaying a changelog.
     *
     * @throws IllegalStateException when the log no longer holds them all (it forgets read records)
     */
    public List<Entry> all(int partition) {
        if (retention == Retention.NONE || dropped > 0) {
            throw new IllegalStateException("Topic '" + name + "' no longer holds every record written to it; "
                    + "keep them with TestDriverConfig.withKeepReadRecords(true)");
        }
        return held.stream().filter(e -> e.partition() == partition).toList();
    }

    /**
     * Takes back {@code written}, records of this log that a transaction wrote and then aborted: they
     * vanish from what the log holds, and every reader past one is moved back by one, so it reads next
     * what it would have read without them. Their offsets stay used, as in Kafka. A record already
     * dropped (every reader had read it) cannot be taken back: the readers saw it.
     */
    public void discard(Collection<Entry> written) {
        if (written.isEmpty() || retention == Retention.NONE) {
            return;
        }
        Set<Entry> gone = Collections.newSetFromMap(new IdentityHashMap<>());
        gone.addAll(written);
        List<Long> removedAt = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            if (gone.contains(held.get(i))) {
                removedAt.add(dropped + i);
            }
        }
        held.removeIf(gone::contains);
        for (Reader r : readers) {
            long before = removedAt.stream().filter(at -> at < r.position).count();
            r.position -= before;
        }
    }

    /** A reader positioned at the oldest record held. */
    public Reader newReader() {
        if (retention == Retention.NONE) {
            throw new IllegalStateException("Topic '" + name + "' keeps no records to read");
        }
        Reader reader = new Reader(dropped);
        readers.add(reader);
        return reader;
    }

    private long end() {
        return dropped + held.size();
    }

    private void readerMoved() {
        if (retention != Retention.UNREAD) {
            return;
        }
        long readByAll = Long.MAX_VALUE;
        for (Reader r : readers) {
            readByAll = Math.min(readByAll, r.position);
        }
        int droppable = (int) (readByAll - dropped);
        // Dropping shifts the records still held, so it waits until at least as many go as stay:
        // each record is then shifted O(1) times on average, however the readers read.
        if (droppable > 0 && droppable >= held.size() - droppable) {
            held.subList(0, droppable).clear();
            dropped = readByAll;
        }
    }

    /** Goes through the records in append order; its position is the count of records before it. */
    public final class Reader {

        private long position;

        private Reader(long position) {
            this.position = position;
        }

        public boolean hasNext() {
            return position < end();
        }

        /** How many records are after the position. */
        public int remaining() {
            return (int) (end() - position);
        }

        public long position() {
            return position;
        }

        /** The record at the position, which stays put. */
        public Entry peek() {
            if (!hasNext()) {
                throw new NoSuchElementException("No unread record on topic '" + name + "'");
            }
            return held.get((int) (position - dropped));
        }

        /** Moves past the record at the position. */
        public void advance() {
            if (!hasNext()) {
                throw new NoSuchElementException("No unread record on topic '" + name + "'");
            }
            position++;
            readerMoved();
        }
    }
}
