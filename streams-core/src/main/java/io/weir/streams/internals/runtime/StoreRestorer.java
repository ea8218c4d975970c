package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.table.SourceRows;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Brings tasks' stores up to date from their changelogs (read_committed) before the tasks run, a
 * step at a time, so that the stream thread keeps polling its group consumer (and stays a member)
 * however long a restore takes. A store remembers, in the metadata of each batch it receives, the
 * changelog offset its contents correspond to; restoration replays only the changelog past that
 * offset — the whole changelog for a new store, the tail after a crash, nothing after a clean
 * shutdown. Restored batches go through {@link BytesStore#restore} (no write-ahead log) and
 * {@link BytesStore#endRestore} makes them durable when a store is done.
 *
 * <p>A store restored from empty (a new instance, a moved task) is bulk-loaded: the records read are
 * collected in chunks of {@value #CHUNK_RECORDS}, and each chunk becomes one sorted file the store
 * ingests ({@link BytesStore#ingest}), with no memtable, log or flush; then the chunk's end offset is
 * stored. A store that already holds some state (a restart) replays its tail in write batches.
 *
 * <p>Reading and writing overlap: the stream thread polls and decodes the changelogs while writer
 * threads of this restorer (one per core, up to {@value #MAX_WRITERS}) apply what was read — each
 * store's batches and chunks in the order read, different stores at once; the chunks of one store
 * are prepared (sorted, written to their files) in parallel and loaded in order. At most
 * {@value #MAX_BATCHES_IN_FLIGHT} batches, and about {@value #MAX_RECORDS_IN_FLIGHT} records, wait
 * for the writers; a task is restored once its last write is done and its stores flushed. Listener
 * calls stay on the stream thread.
 *
 * <p>Used by one stream thread; uses (does not own) that thread's restore consumer and the stores;
 * owns its writer threads, which {@link #close} stops.
 *
 * <p>Why one class: reading (positions, ends, the wipe of a store whose changelog lost records) and
 * handing batches to the writers share the per-changelog progress and the in-flight limits; the
 * parts it drives, the stores' {@code restore} and {@code ingest}, live in the stores.
 */
final class StoreRestorer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StoreRestorer.class);
    private static final Duration STALL_LIMIT = Duration.ofMinutes(5);
    private static final int MAX_WRITERS = 4;
    private static final int MAX_BATCHES_IN_FLIGHT = 8;
    /** Records an empty store's restore collects for one sorted file. */
    private static final int CHUNK_RECORDS = 100_000;
    /** Records read but not yet written, collected or handed to the writers, before reading pauses. */
    private static final int MAX_RECORDS_IN_FLIGHT = 300_000;

    private final Consumer<byte[], byte[]> consumer;
    private final RestoreListener listener;
    private final String writerName;
    private final boolean exactlyOnce;
    private final Function<Set<String>, Map<String, Uuid>> topicIds;
    private final boolean rebuildDeleted;
    private @Nullable ExecutorService writer;
    /** Changelog partitions still being read. */
    private final Map<TopicPartition, Changelog> changelogs = new HashMap<>();

    private final Map<TaskId, Set<TopicPartition>> pending = new HashMap<>();
    /** Writes handed to the writer threads, oldest first. */
    private final Deque<Write> writes = new ArrayDeque<>();

    /** One store's changelog partition being replayed. */
    private static final class Changelog {
        final TaskId task;
        final TopicPartition partition;
        final String store;
        final BytesStore target;
        final long from;
        final long end;
        /** For a source table's store, what it holds for a record of its topic; null for a changelog of its own. */
        final @Nullable SourceRows<?, ?> rows;

        long restored;
        long lastProgress = System.nanoTime();
        /** The offset up to which the store received what it restores: the metrics' view of progress. */
        volatile long written;
        /** The records the store received, for the metrics. */
        final Counter restoredRecords;
        /** For a store restored from empty: the records read since the last chunk was handed over; else null. */
        @Nullable
        List<StoreBatch.Put> chunk;
        /** The store's last write handed to the writers: the next one runs after it. */
        CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);

        Changelog(
                TaskId task,
                TopicPartition partition,
                String store,
                BytesStore target,
                long from,
                long end,
                @Nullable SourceRows<?, ?> rows,
                TaskMetrics metrics) {
            this.task = task;
            this.partition = partition;
            this.store = store;
            this.target = target;
            this.from = from;
            this.end = end;
            this.rows = rows;
            this.written = from;
            this.restoredRecords = metrics.counter(store, WeirMetrics.RECORDS_RESTORED);
            metrics.gauge(store, WeirMetrics.RESTORE_REMAINING_RECORDS, () -> Math.max(0, end - written));
        }

        /** The store write for a record read, or null for one a source table's processing skipped. */
        StoreBatch.@Nullable Put put(ConsumerRecord<byte[], byte[]> r) {
            if (rows == null) {
                return new StoreBatch.Put(r.key(), r.value());
            }
            return rows.restored(r.topic(), r.headers(), r.key(), r.value(), r.timestamp());
        }
    }

    /**
     * A batch of {@code count} records up to {@code position} on its way to a store; {@code last} for
     * the one that ends a changelog's restore (with the flush).
     */
    private record Write(Changelog changelog, long position, int count, boolean last, Future<?> done) {}

    /**
     * @param exactlyOnce    whether changelogs are written in transactions (a commit marker follows each store batch)
     * @param topicIds       the ids of changelog topics, as they are now
     * @param rebuildDeleted whether a store whose changelog was deleted (a new, empty topic) starts empty rather
     *                       than failing its task ({@code changelog.deleted.rebuild})
     */
    StoreRestorer(
            Consumer<byte[], byte[]> consumer,
            RestoreListener listener,
            String threadName,
            boolean exactlyOnce,
            Function<Set<String>, Map<String, Uuid>> topicIds,
            boolean rebuildDeleted) {
        this.topicIds = topicIds;
        this.rebuildDeleted = rebuildDeleted;
        this.consumer = consumer;
        this.exactlyOnce = exactlyOnce;
        this.listener = listener;
        this.writerName = threadName + "-restore-writer";
    }

    /**
     * Starts restoring a task's logged stores: positions each changelog after what its store holds
     * and reads where the changelog ends now; a source table's store reads its topic up to the offset
     * {@code committed} for the task's input there (nothing when none was committed), which is where
     * processing resumes. Each store restored reports its progress in {@code metrics}.
     */
    void register(
            TaskId task,
            TaskStores stores,
            String applicationId,
            Map<TopicPartition, @Nullable OffsetAndMetadata> committed,
            TaskMetrics metrics) {
        Map<TopicPartition, String> logged = new HashMap<>();
        for (String name : stores.names()) {
            StoreSpec spec = stores.spec(name);
            if (spec.logged()) {
                logged.put(new TopicPartition(spec.changelogTopic(applicationId), task.partition()), name);
            }
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(logged.keySet());
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(logged.keySet());
        Map<String, Uuid> ids = topicIds.apply(
                logged.keySet().stream().map(TopicPartition::topic).collect(Collectors.toSet()));
        Map<TopicPartition, @Nullable Long> from = new HashMap<>();
        Map<TopicPartition, Long> until = new HashMap<>();
        logged.forEach((tp, name) -> {
            BytesStore store = stores.cache(name).store();
            Long offset = ChangelogOffset.of(store);
            SourceSpec source = stores.spec(name).source();
            // The consumer answers for every partition asked about.
            long start = Objects.requireNonNull(starts.get(tp));
            long end = Objects.requireNonNull(ends.get(tp));
            if (source != null) {
                OffsetAndMetadata input = committed.get(tp);
                end = Math.min(end, input == null ? 0 : input.offset());
            }
            Uuid id = ids.get(tp.topic());
            if (id != null && !id.equals(ChangelogOffset.topicIdOf(store))) {
                offset = takeChangelog(task, name, tp, stores, id, Objects.requireNonNull(ends.get(tp)));
            }
            if (offset != null && missedRecords(offset, start, end, exactlyOnce)) {
                log.warn(
                        "Store {} of task {} holds the changelog {} up to offset {}, but the changelog now spans [{}, {}): "
                                + "records the store has not seen are gone (retention, deleted records, or a recreated "
                                + "topic). Wiping the store and restoring it from the changelog.",
                        name,
                        task,
                        tp,
                        offset,
                        start,
                        end);
                store.write(new StoreBatch().deleteRange(null, null).putMetadata(ChangelogOffset.KEY, null));
                offset = null;
            }
            if (offset != null && nothingLeft(offset, end, source == null)) {
                return;
            }
            from.put(tp, offset);
            until.put(tp, end);
        });
        List<TopicPartition> assignment = new ArrayList<>(changelogs.keySet());
        assignment.addAll(from.keySet());
        // Partitions that stay assigned keep their positions.
        consumer.assign(assignment);
        from.forEach((tp, offset) -> {
            String name = Objects.requireNonNull(logged.get(tp));
            if (offset == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, offset);
            }
            SourceSpec source = stores.spec(name).source();
            Changelog c = new Changelog(
                    task,
                    tp,
                    name,
                    stores.cache(name).store(),
                    consumer.position(tp),
                    Objects.requireNonNull(until.get(tp)),
                    source == null ? null : new SourceRows<>(source.consumed()),
                    metrics);
            if (offset == null) {
                c.chunk = new ArrayList<>();
            }
            changelogs.put(tp, c);
        });
        pending.put(task, new HashSet<>(from.keySet()));
    }

    /**
     * Makes the store {@code name} follow the changelog topic {@code id}, which is not the one it was built
     * from (or none is recorded: a store of an earlier version, or a new one). A store built from another
     * topic of that name holds another history: it is wiped and rebuilt from this one, counted as a rebuild,
     * unless this one is empty, which means the changelog was deleted and the state with it; that fails the
     * task unless {@code changelog.deleted.rebuild} lets the store start empty.
     *
     * @return the offset the store holds the changelog up to afterwards (null: none, restore from the start)
     */
    private @Nullable Long takeChangelog(
            TaskId task, String name, TopicPartition tp, TaskStores stores, Uuid id, long end) {
        BytesStore store = stores.cache(name).store();
        Uuid built = ChangelogOffset.topicIdOf(store);
        Long offset = ChangelogOffset.of(store);
        if (built == null || offset == null) {
            // Nothing to compare, or nothing to lose: the store follows this topic from now on.
            store.write(new StoreBatch().putMetadata(ChangelogOffset.TOPIC_ID_KEY, ChangelogOffset.topicId(id)));
            return offset;
        }
        if (end == 0 && !rebuildDeleted) {
            throw new IllegalStateException("Store " + name + " of task " + task + " was built from changelog " + tp
                    + " with topic id " + built + ", but that topic is now " + id + " and empty: the changelog was "
                    + "deleted, and the state it held with it. To rebuild the state from the input, reset the "
                    + "application; to let the store start empty, set " + StreamsConfig.CHANGELOG_DELETED_REBUILD
                    + "=true");
        }
        log.warn(
                "Store {} of task {} was built from changelog {} with topic id {}, but that topic is now {} ({}): "
                        + "wiping the store and rebuilding it from the topic as it is",
                name,
                task,
                tp,
                built,
                id,
                end == 0 ? "empty; " + StreamsConfig.CHANGELOG_DELETED_REBUILD + "=true" : "recreated with records");
        store.write(new StoreBatch()
                .deleteRange(null, null)
                .putMetadata(ChangelogOffset.KEY, null)
                .putMetadata(ChangelogOffset.TOPIC_ID_KEY, ChangelogOffset.topicId(id)));
        stores.cache(name).rebuilt();
        return null;
    }

    /**
     * Whether a store that holds its changelog up to {@code stored} (the next offset it has not applied)
     * has missed records the changelog no longer has: the changelog starts after that offset, or ends
     * before it (recreated). Under exactly-once the stored offset is the commit marker of the store's last
     * transaction, so a changelog that starts right after it lost only that marker.
     */
    static boolean missedRecords(long stored, long start, long end, boolean exactlyOnce) {
        return stored > end || start > stored + (exactlyOnce ? 1 : 0);
    }

    /**
     * Whether a store that holds its changelog up to {@code stored} has nothing left to read before
     * {@code end}, so that the restore need not read the changelog at all (a restart after a clean close
     * or a standby copy caught up). Under exactly-once the record before the end of a changelog of the
     * store's own is a transaction's commit or abort marker (a transaction's records all lie below the
     * last stable offset, with their marker), so a store one short of the end lacks only that marker.
     */
    private boolean nothingLeft(long stored, long end, boolean ownChangelog) {
        return stored >= end - (exactlyOnce && ownChangelog ? 1 : 0);
    }

    /** Whether any registered task is still restoring. */
    boolean restoring() {
        return !pending.isEmpty();
    }

    /**
     * Reads what the changelogs return within {@code timeout} (one store batch per changelog
     * partition) and hands it to the writers; collects the writes done since the last step.
     *
     * @return the tasks whose stores are all restored now; they are no longer registered
     * @throws IllegalStateException if a changelog made no progress for five minutes
     * @throws io.weir.streams.internals.state.StoreException if writing a restored batch failed
     */
    Set<TaskId> step(Duration timeout) {
        Set<TaskId> done = new HashSet<>();
        // A task without logged stores, or whose changelogs hold nothing new, is done at once.
        pending.forEach((task, partitions) -> {
            if (partitions.isEmpty()) {
                done.add(task);
            }
        });
        while (!writes.isEmpty()
                && (writes.size() >= MAX_BATCHES_IN_FLIGHT || recordsInFlight() >= MAX_RECORDS_IN_FLIGHT)) {
            complete(writes.peekFirst(), done);
        }
        if (changelogs.isEmpty() && !writes.isEmpty()) {
            // Everything is read: only the writer is left to wait for.
            complete(writes.peekFirst(), done);
        }
        ConsumerRecords<byte[], byte[]> records =
                changelogs.isEmpty() ? ConsumerRecords.empty() : consumer.poll(timeout);
        for (Changelog c : new ArrayList<>(changelogs.values())) {
            TopicPartition tp = c.partition;
            List<ConsumerRecord<byte[], byte[]>> batch = upTo(records.records(tp), c.end);
            // A source table's topic goes on past the offset its restore ends at.
            long position = Math.min(consumer.position(tp), c.end);
            if (!batch.isEmpty()) {
                apply(c, batch, position);
            } else if (position < c.end && System.nanoTime() - c.lastProgress > STALL_LIMIT.toNanos()) {
                throw new IllegalStateException("Restoring store " + c.store + " from " + tp + " made no progress for "
                        + STALL_LIMIT.toMinutes() + " minutes at offset " + position + " of " + c.end);
            }
            if (position >= c.end) {
                changelogs.remove(tp);
                consumer.assign(changelogs.keySet());
                if (c.chunk != null && !c.chunk.isEmpty()) {
                    submitChunk(c, position);
                }
                submit(c, position, 0, true, () -> {
                    if (position != c.from) {
                        c.target.restore(
                                new StoreBatch().putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(position)));
                        c.target.endRestore();
                    }
                });
            }
        }
        while (!writes.isEmpty() && writes.peekFirst().done().isDone()) {
            complete(writes.peekFirst(), done);
        }
        done.forEach(pending::remove);
        return done;
    }

    /** The records before offset {@code end}. */
    private static List<ConsumerRecord<byte[], byte[]>> upTo(List<ConsumerRecord<byte[], byte[]>> records, long end) {
        if (records.isEmpty() || records.get(records.size() - 1).offset() < end) {
            return records;
        }
        List<ConsumerRecord<byte[], byte[]>> before = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.offset() < end) {
                before.add(r);
            }
        }
        return before;
    }

    private void apply(Changelog c, List<ConsumerRecord<byte[], byte[]>> records, long position) {
        // Announced with the first record, not before: the range left after a commit usually holds
        // only that transaction's marker, which is nothing to restore.
        if (c.restored == 0) {
            log.info(
                    "Restoring store {} of task {} from {} offsets [{}, {})",
                    c.store,
                    c.task,
                    c.partition,
                    c.from,
                    c.end);
            listener.onRestoreStart(c.partition, c.store, c.from, c.end);
        }
        c.restored += records.size();
        c.lastProgress = System.nanoTime();
        if (c.chunk != null) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                StoreBatch.Put put = c.put(r);
                if (put != null) {
                    c.chunk.add(put);
                }
            }
            if (c.chunk.size() >= CHUNK_RECORDS) {
                submitChunk(c, position);
            }
            return;
        }
        StoreBatch batch = new StoreBatch();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            StoreBatch.Put put = c.put(r);
            if (put != null) {
                batch.put(put.key(), put.value());
            }
        }
        batch.putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(position));
        submit(c, position, records.size(), false, () -> c.target.restore(batch));
    }

    /** Hands a collected chunk to the writers: one sorted file, then the offset it reaches. */
    private void submitChunk(Changelog c, long position) {
        List<StoreBatch.Put> chunk =
                Objects.requireNonNull(c.chunk, "only a store restored from empty collects chunks");
        c.chunk = new ArrayList<>();
        // Preparing a chunk (sorting it, writing its file) may run beside the store's earlier chunks;
        // loading it waits for them, so the store takes its chunks in changelog order.
        CompletableFuture<BytesStore.Ingestion> prepared =
                CompletableFuture.supplyAsync(() -> c.target.prepareIngest(chunk), writers());
        c.lastWrite = c.lastWrite.thenCombineAsync(
                prepared,
                (previous, ingestion) -> {
                    ingestion.apply();
                    c.target.restore(
                            new StoreBatch().putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(position)));
                    return null;
                },
                writers());
        writes.addLast(new Write(c, position, chunk.size(), false, c.lastWrite));
    }

    /** Records collected for chunks or handed to the writers and not yet written. */
    private long recordsInFlight() {
        long n = 0;
        for (Write w : writes) {
            n += w.count();
        }
        for (Changelog c : changelogs.values()) {
            n += c.chunk == null ? 0 : c.chunk.size();
        }
        return n;
    }

    private void submit(Changelog c, long position, int count, boolean last, Runnable write) {
        c.lastWrite = c.lastWrite.thenRunAsync(write, writers());
        writes.addLast(new Write(c, position, count, last, c.lastWrite));
    }

    /** The writer threads, started with the first write. */
    private ExecutorService writers() {
        ExecutorService writers = writer;
        if (writers == null) {
            AtomicInteger n = new AtomicInteger();
            writers = Executors.newFixedThreadPool(
                    Math.max(1, Math.min(MAX_WRITERS, Runtime.getRuntime().availableProcessors())), r -> {
                        Thread t = new Thread(r, writerName + "-" + n.getAndIncrement());
                        t.setDaemon(true);
                        return t;
                    });
            writer = writers;
        }
        return writers;
    }

    /** Waits for the oldest write, reports it, and when it ended a changelog, the changelog's task may be done. */
    private void complete(Write w, Set<TaskId> done) {
        await(w.done());
        writes.removeFirst();
        Changelog c = w.changelog();
        if (!w.last()) {
            c.restoredRecords.increment(w.count());
            c.written = w.position();
            listener.onBatchRestored(c.partition, c.store, w.position(), w.count());
            return;
        }
        c.written = c.end;
        if (c.restored > 0) {
            log.info("Restored store {} of task {}: {} records", c.store, c.task, c.restored);
            listener.onRestoreEnd(c.partition, c.store, c.restored);
        }
        Set<TopicPartition> left = pending.get(c.task);
        if (left != null) {
            left.remove(c.partition);
            if (left.isEmpty()) {
                done.add(c.task);
            }
        }
    }

    private static void await(Future<?> f) {
        try {
            f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("Writing a restored batch failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while restoring", e);
        }
    }

    /**
     * Stops restoring a task (it was revoked or its thread is closing): waits for the writes already
     * handed over, so the caller may close the stores, which keep what was restored.
     */
    void remove(TaskId task) {
        Set<TopicPartition> partitions = pending.remove(task);
        if (partitions == null) {
            return;
        }
        for (Write w : writes) {
            if (w.changelog().task.equals(task)) {
                try {
                    await(w.done());
                } catch (RuntimeException e) {
                    log.warn("Writing a restored batch of store {} of task {} failed", w.changelog().store, task, e);
                }
            }
        }
        writes.removeIf(w -> w.changelog().task.equals(task));
        partitions.forEach(tp -> {
            Changelog c = changelogs.remove(tp);
            if (c != null && c.restored > 0) {
                c.target.endRestore();
            }
        });
        consumer.assign(changelogs.keySet());
    }

    /** Stops the writer threads, after the writes handed to them (tasks are removed before). */
    @Override
    public void close() {
        if (writer != null) {
            writer.shutdown();
            try {
                if (!writer.awaitTermination(1, TimeUnit.MINUTES)) {
                    log.warn("The restore writers {} did not stop within a minute", writerName);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
