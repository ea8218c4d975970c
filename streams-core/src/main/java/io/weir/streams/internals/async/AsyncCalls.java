package io.weir.streams.internals.async;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The calls of one asynchronous operator in one task: the records it holds, from their arrival until their
 * result leaves, which of them have a call in flight, which wait for a retry or for their key, and the order
 * in which results may leave.
 *
 * <p>Order: with {@link AsyncSettings.Order#PER_KEY}, the results of one key leave in the order its records
 * arrived, and a key never waits for another; with {@link AsyncSettings.Order#PARTITION}, every result leaves
 * in arrival order. At most {@link AsyncSettings#capacity()} records are held (the caller asks {@link
 * #hasRoom()} before {@link #add}), and at most {@link AsyncSettings#capacityPerKey()} of one key have a call
 * in flight; the others of that key wait, held, without a call. The capacity bounds what the caller adds
 * while there is room: a record that fans out into several before the next check may take a few more.
 *
 * <p>Watermark barriers ({@link #addBarrier}, for an operator that acts on the watermark, such as {@code
 * processAsync}'s timers): a queued advance leaves after every record held before it and before any record
 * added after it, so a result may overtake another key's only between the same two advances.
 *
 * <p>Failures: a call that fails, times out ({@link AsyncSettings#timeoutMs()}, processing time) or throws
 * is tried again after a backoff, up to {@link AsyncSettings#retries()} times; then its record leaves, in its
 * place in the order, as a failure for the error handler. A late completion of an attempt that timed out is
 * ignored.
 *
 * <p>Time is the caller's processing time, passed in: the deadlines are deterministic under a virtual clock.
 *
 * <p>Threads: one thread (the task's) calls every method but {@link #onCompletion}'s callback, which the
 * calls' completions run on whatever thread completes them; they only add to a concurrent inbox, which
 * {@link #poll} takes in on the task's thread.
 */
public final class AsyncCalls<K, V, R> {

    /**
     * What leaves, in order: a result, a record whose call finally failed, or a watermark advance queued
     * with {@link #addBarrier}.
     */
    public interface Results<K, V, R> {
        void result(Record<K, V> record, @Nullable R result);

        void failed(Record<K, V> record, Throwable error, int attempts);

        /** Every record held when {@code watermark} was queued has left; none held since has. */
        default void watermark(long watermark) {}
    }

    /**
     * A watermark advance still waiting for records, as a commit keeps it: {@code heldBefore} of the held
     * records (in arrival order) arrived before it.
     */
    public record PendingWatermark(int heldBefore, long watermark) {}

    /** The user's call for one record. */
    @FunctionalInterface
    public interface Call<K, V, R> {
        CompletionStage<? extends R> call(@Nullable K key, @Nullable V value);
    }

    private enum State {
        WAITING,
        IN_FLIGHT,
        BACKOFF,
        SUCCEEDED,
        FAILED
    }

    /** One held record. */
    private static final class Held<K, V, R> {
        final long sequence;
        final Record<K, V> record;
        final Object group;
        State state = State.WAITING;
        int attempts;

        @Nullable
        R result;

        @Nullable
        Throwable error;

        Held(long sequence, Record<K, V> record, Object group) {
            this.sequence = sequence;
            this.record = record;
            this.group = group;
        }
    }

    /** A completion of one attempt, from any thread. */
    private record Completion(
            Held<?, ?, ?> held,
            int attempt,
            @Nullable Object result,
            @Nullable Throwable error) {}

    /** A timeout or the end of a backoff, for one attempt. */
    private record Due(long at, Held<?, ?, ?> held, int attempt) {}

    /** A watermark advance queued behind the records of sequence below {@code before}. */
    private record Barrier(long before, long watermark) {}

    private static final Object NULL_KEY = new Object();

    private final AsyncSettings settings;
    private final Call<K, V, R> call;
    private final Function<K, Object> grouping;
    private final Runnable onCompletion;
    /** Every held record by sequence, in arrival order. */
    private final LinkedHashMap<Long, Held<K, V, R>> held = new LinkedHashMap<>();
    /** The held records of each key (group), in arrival order. */
    private final Map<Object, ArrayDeque<Held<K, V, R>>> groups = new HashMap<>();
    /** The number of held records per event time: the smallest is the hold on the watermark. */
    private final TreeMap<Long, Integer> times = new TreeMap<>();

    private final PriorityQueue<Due> dues = new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));
    private final ConcurrentLinkedQueue<Completion> inbox = new ConcurrentLinkedQueue<>();
    /** The watermark advances queued, oldest first. */
    private final ArrayDeque<Barrier> barriers = new ArrayDeque<>();
    /** Keys (per-key order) whose next result is ready but arrived after the oldest queued barrier. */
    private final Set<Object> blocked = new LinkedHashSet<>();

    private long nextSequence;
    private volatile boolean abandoned;

    /**
     * @param grouping the identity of a key for per-key order and the per-key limit (equal identities are one
     *     key): the key's serialized bytes, so that keys equal as Kafka partitions them are one key
     * @param onCompletion run on the completing thread after each completion is in the inbox: wakes the task's
     *     thread
     */
    public AsyncCalls(AsyncSettings settings, Call<K, V, R> call, Function<K, Object> grouping, Runnable onCompletion) {
        this.settings = settings;
        this.call = call;
        this.grouping = grouping;
        this.onCompletion = onCompletion;
    }

    /**
     * The calls of an operator of the task {@code context} runs in: its keys are grouped by their bytes as
     * {@code keySerde} writes them (keys equal as Kafka partitions them are one key), and each completion
     * wakes the task's thread.
     *
     * @param store what the key serializer is told it writes for: the operator's store
     */
    public static <K, V, R> AsyncCalls<K, V, R> inTask(
            ProcessorContext context, AsyncSettings settings, Call<K, V, R> call, Serde<K> keySerde, String store) {
        Serializer<K> keys = keySerde.serializer();
        return new AsyncCalls<>(settings, call, key -> ByteBuffer.wrap(keys.serialize(store, key)), context.wakeup());
    }

    /** Whether another record may be added: fewer than the capacity are held. */
    public boolean hasRoom() {
        return held.size() < settings.capacity();
    }

    /** The number of records held. */
    public int size() {
        return held.size();
    }

    /** A held record and its sequence (the order of arrival), for {@link #forEachHeld}. */
    @FunctionalInterface
    public interface HeldVisitor<K, V> {
        void accept(long sequence, Record<K, V> record);
    }

    /**
     * Holds {@code record}, and calls for it at once unless its key has as many calls in flight as allowed.
     * The caller checks {@link #hasRoom()} first.
     */
    public void add(Record<K, V> record, long now) {
        K key = record.key();
        Object group = key == null ? NULL_KEY : grouping.apply(key);
        Held<K, V, R> h = new Held<>(nextSequence++, record, group);
        held.put(h.sequence, h);
        groups.computeIfAbsent(group, g -> new ArrayDeque<>()).add(h);
        times.merge(record.timestamp(), 1, Integer::sum);
        issueWaiting(group, now);
    }

    /**
     * Queues a watermark advance behind every record held now: it leaves ({@link Results#watermark}) once they
     * all have, and no record added after it leaves before it does. With barriers, what leaves is the
     * synchronous order for each key: a key's results and the advances, as a synchronous operator would have
     * seen them, while calls of every key still run at once. The caller polls to let it leave.
     */
    public void addBarrier(long watermark) {
        barriers.add(new Barrier(nextSequence, watermark));
    }

    /** Whether a watermark advance is queued that has not left. */
    public boolean hasBarriers() {
        return !barriers.isEmpty();
    }

    /** The watermark advances still waiting, each with how many held records arrived before it. */
    public List<PendingWatermark> pendingWatermarks() {
        List<PendingWatermark> pending = new ArrayList<>(barriers.size());
        Iterator<Long> sequences = held.keySet().iterator();
        int before = 0;
        long next = sequences.hasNext() ? sequences.next() : Long.MAX_VALUE;
        for (Barrier b : barriers) {
            while (next < b.before()) {
                before++;
                next = sequences.hasNext() ? sequences.next() : Long.MAX_VALUE;
            }
            pending.add(new PendingWatermark(before, b.watermark()));
        }
        return pending;
    }

    /**
     * Takes in the completions that arrived, the timeouts and backoffs due by {@code now}, starts the calls
     * that may start, and hands every result that may leave to {@code out}, in order.
     */
    public void poll(long now, Results<K, V, R> out) {
        List<Object> touched = new ArrayList<>();
        for (Completion c = inbox.poll(); c != null; c = inbox.poll()) {
            @SuppressWarnings("unchecked")
            Held<K, V, R> h = (Held<K, V, R>) c.held();
            if (h.state != State.IN_FLIGHT || h.attempts != c.attempt()) {
                continue;
            }
            if (c.error() == null) {
                @SuppressWarnings("unchecked")
                R result = (R) c.result();
                h.result = result;
                h.state = State.SUCCEEDED;
            } else {
                attemptFailed(h, unwrap(c.error()), now);
            }
            touched.add(h.group);
        }
        while (!dues.isEmpty() && dues.peek().at() <= now) {
            Due d = dues.poll();
            @SuppressWarnings("unchecked")
            Held<K, V, R> h = (Held<K, V, R>) d.held();
            if (h.attempts != d.attempt()) {
                continue;
            }
            if (h.state == State.IN_FLIGHT) {
                attemptFailed(h, new TimeoutException("The call timed out after " + settings.timeoutMs() + " ms"), now);
                touched.add(h.group);
            } else if (h.state == State.BACKOFF) {
                issue(h, now);
            }
        }
        emit(touched, now, out);
    }

    /**
     * The smallest event time of a held record (its result has not left), or Long.MAX_VALUE when none is
     * held. A record held at Long.MAX_VALUE holds at Long.MAX_VALUE - 1, so that "none" stays unambiguous; the
     * watermark below it then stays below the record's time all the same.
     */
    public long hold() {
        return times.isEmpty() ? Long.MAX_VALUE : Math.min(times.firstKey(), Long.MAX_VALUE - 1);
    }

    /** When the next timeout or backoff falls due (processing time), or Long.MAX_VALUE when none will. */
    public long nextDue() {
        Due d = dues.peek();
        return d == null ? Long.MAX_VALUE : d.at();
    }

    /** Whether a completion has arrived that {@link #poll} has not taken in yet. */
    public boolean completionsWaiting() {
        return !inbox.isEmpty();
    }

    /** Hands every held record to {@code visitor}, in arrival order: what a commit keeps for a later owner. */
    public void forEachHeld(HeldVisitor<K, V> visitor) {
        held.values().forEach(h -> visitor.accept(h.sequence, h.record));
    }

    /**
     * Forgets every held record: their calls' completions, whenever they come, are ignored. For a task that
     * closes; whatever it committed holds what a later owner needs.
     */
    public void abandon() {
        abandoned = true;
        held.clear();
        groups.clear();
        times.clear();
        dues.clear();
        inbox.clear();
        barriers.clear();
        blocked.clear();
    }

    private void attemptFailed(Held<K, V, R> h, Throwable error, long now) {
        h.error = error;
        if (h.attempts > settings.retries()) {
            h.state = State.FAILED;
            return;
        }
        h.state = State.BACKOFF;
        dues.add(new Due(TimeMath.plus(now, settings.backoffMs(h.attempts)), h, h.attempts));
    }

    /** Starts calls for the waiting records of {@code group}, up to its limit of calls in flight. */
    private void issueWaiting(Object group, long now) {
        ArrayDeque<Held<K, V, R>> queue = groups.get(group);
        if (queue == null) {
            return;
        }
        int inFlight = 0;
        for (Held<K, V, R> h : queue) {
            if (h.state == State.IN_FLIGHT || h.state == State.BACKOFF) {
                inFlight++;
            }
        }
        for (Held<K, V, R> h : queue) {
            if (inFlight >= settings.capacityPerKey()) {
                return;
            }
            if (h.state == State.WAITING) {
                issue(h, now);
                inFlight++;
            }
        }
    }

    private void issue(Held<K, V, R> h, long now) {
        h.state = State.IN_FLIGHT;
        int attempt = ++h.attempts;
        dues.add(new Due(TimeMath.plus(now, settings.timeoutMs()), h, attempt));
        CompletionStage<? extends R> stage;
        try {
            stage = call.call(h.record.key(), h.record.value());
        } catch (RuntimeException e) {
            complete(new Completion(h, attempt, null, e));
            return;
        }
        if (stage == null) {
            complete(new Completion(
                    h, attempt, null, new NullPointerException("The asynchronous call returned no CompletionStage")));
            return;
        }
        stage.whenComplete((result, error) -> complete(new Completion(h, attempt, result, error)));
    }

    private void complete(Completion completion) {
        if (abandoned) {
            return;
        }
        inbox.add(completion);
        onCompletion.run();
    }

    /**
     * Hands over every result that may leave, in order, and the watermark advances whose records have all
     * left, and starts the calls that then may start.
     */
    private void emit(List<Object> touched, long now, Results<K, V, R> out) {
        if (settings.order() == AsyncSettings.Order.PARTITION) {
            Iterator<Held<K, V, R>> it = held.values().iterator();
            while (true) {
                Held<K, V, R> h = it.hasNext() ? it.next() : null;
                passBarriers(h == null ? Long.MAX_VALUE : h.sequence, out);
                if (h == null || !done(h)) {
                    break;
                }
                it.remove();
                leave(h, out);
                issueWaiting(h.group, now);
            }
            touched.forEach(group -> issueWaiting(group, now));
            return;
        }
        touched.forEach(group -> leaveInKeyOrder(group, now, out));
        while (!barriers.isEmpty() && oldestHeld() >= barriers.peek().before()) {
            out.watermark(barriers.poll().watermark());
            List<Object> ready = new ArrayList<>(blocked);
            blocked.clear();
            ready.forEach(group -> leaveInKeyOrder(group, now, out));
        }
    }

    /** The results of {@code group} that are ready and next in its order, up to the oldest queued barrier. */
    private void leaveInKeyOrder(Object group, long now, Results<K, V, R> out) {
        long limit = barriers.isEmpty() ? Long.MAX_VALUE : barriers.peek().before();
        for (ArrayDeque<Held<K, V, R>> queue = groups.get(group);
                queue != null && done(queue.peekFirst());
                queue = groups.get(group)) {
            Held<K, V, R> h = queue.peekFirst();
            if (h.sequence >= limit) {
                blocked.add(group);
                break;
            }
            held.remove(h.sequence);
            leave(h, out);
        }
        issueWaiting(group, now);
    }

    /** In partition order: the barriers queued before the record of sequence {@code next} leave. */
    private void passBarriers(long next, Results<K, V, R> out) {
        while (!barriers.isEmpty() && barriers.peek().before() <= next) {
            out.watermark(barriers.poll().watermark());
        }
    }

    private long oldestHeld() {
        return held.isEmpty() ? Long.MAX_VALUE : held.keySet().iterator().next();
    }

    private static boolean done(@Nullable Held<?, ?, ?> h) {
        return h != null && (h.state == State.SUCCEEDED || h.state == State.FAILED);
    }

    private void leave(Held<K, V, R> h, Results<K, V, R> out) {
        ArrayDeque<Held<K, V, R>> queue = groups.get(h.group);
        if (queue != null) {
            queue.remove(h);
            if (queue.isEmpty()) {
                groups.remove(h.group);
            }
        }
        times.computeIfPresent(h.record.timestamp(), (t, n) -> n == 1 ? null : n - 1);
        if (h.state == State.SUCCEEDED) {
            out.result(h.record, h.result);
        } else {
            Throwable error = h.error;
            out.failed(h.record, error == null ? new IllegalStateException("The call failed") : error, h.attempts);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
