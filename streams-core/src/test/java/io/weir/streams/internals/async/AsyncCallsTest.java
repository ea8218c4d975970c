package io.weir.streams.internals.async;

import io.weir.streams.internals.processor.Record;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link AsyncCalls}, one test each, against a service the test completes by hand. */
class AsyncCallsTest {

    private static final AsyncSettings PER_KEY =
            new AsyncSettings(4, 2, 1_000, 2, 100, 400, AsyncSettings.Order.PER_KEY);

    /** A service whose calls the test completes, in any order. */
    private static final class Service {
        final List<String> calls = new ArrayList<>();
        final List<CompletableFuture<String>> pending = new ArrayList<>();

        CompletableFuture<String> call(@Nullable String key, @Nullable String value) {
            calls.add(key + ":" + value);
            CompletableFuture<String> f = new CompletableFuture<>();
            pending.add(f);
            return f;
        }

        void succeed(int call) {
            pending.get(call).complete(calls.get(call).toUpperCase(java.util.Locale.ROOT));
        }

        void fail(int call) {
            pending.get(call).completeExceptionally(new IllegalStateException("down"));
        }
    }

    /** What left, in order: "KEY:VALUE" results, or "failed key:value after n". */
    private static final class Out implements AsyncCalls.Results<String, String, String> {
        final List<String> left = new ArrayList<>();

        @Override
        public void result(Record<String, String> record, @Nullable String result) {
            left.add(String.valueOf(result));
        }

        @Override
        public void failed(Record<String, String> record, Throwable error, int attempts) {
            left.add("failed " + record.key() + ":" + record.value() + " after " + attempts + " ("
                    + error.getClass().getSimpleName() + ")");
        }

        @Override
        public void watermark(long watermark) {
            left.add("wm " + watermark);
        }
    }

    private final Service service = new Service();
    private final Out out = new Out();
    private final AtomicInteger wakeups = new AtomicInteger();

    private AsyncCalls<String, String, String> calls(AsyncSettings settings) {
        return new AsyncCalls<>(settings, service::call, k -> k, wakeups::incrementAndGet);
    }

    private static Record<String, String> record(String key, String value, long time) {
        return new Record<>(key, value, time, null, null);
    }

    @Test
    void resultsOfOneKeyLeaveInArrivalOrderAndOtherKeysOvertake() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 10), 0);
        calls.add(record("a", "2", 11), 0);
        calls.add(record("b", "3", 12), 0);
        service.succeed(1);
        service.succeed(2);
        calls.poll(0, out);
        assertEquals(List.of("B:3"), out.left, "a:2 waits for a:1; b overtakes");
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of("B:3", "A:1", "A:2"), out.left);
        assertEquals(0, calls.size());
        assertEquals(3, wakeups.get(), "each completion wakes the task's thread");
    }

    @Test
    void partitionOrderKeepsEveryResultInArrivalOrder() {
        AsyncCalls<String, String, String> calls =
                calls(new AsyncSettings(4, 1, 1_000, 0, 0, 0, AsyncSettings.Order.PARTITION));
        calls.add(record("a", "1", 10), 0);
        calls.add(record("b", "2", 11), 0);
        service.succeed(1);
        calls.poll(0, out);
        assertEquals(List.of(), out.left);
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of("A:1", "B:2"), out.left);
    }

    @Test
    void aBarrierLeavesAfterTheRecordsBeforeItAndBeforeThoseAfterIt() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 10), 0);
        calls.addBarrier(100);
        calls.add(record("b", "2", 11), 0);
        calls.add(record("a", "3", 12), 0);
        assertEquals(List.of(new AsyncCalls.PendingWatermark(1, 100)), calls.pendingWatermarks());
        service.succeed(1);
        calls.poll(0, out);
        assertEquals(List.of(), out.left, "b:2 came after the barrier, which waits for a:1");
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of("A:1", "wm 100", "B:2"), out.left);
        assertFalse(calls.hasBarriers());
        service.succeed(2);
        calls.poll(0, out);
        assertEquals(List.of("A:1", "wm 100", "B:2", "A:3"), out.left);
    }

    @Test
    void inPartitionOrderABarrierLeavesInItsPlace() {
        AsyncCalls<String, String, String> calls =
                calls(new AsyncSettings(4, 1, 1_000, 0, 0, 0, AsyncSettings.Order.PARTITION));
        calls.addBarrier(5);
        calls.add(record("a", "1", 10), 0);
        calls.addBarrier(100);
        calls.addBarrier(200);
        calls.add(record("b", "2", 11), 0);
        assertEquals(
                List.of(
                        new AsyncCalls.PendingWatermark(0, 5),
                        new AsyncCalls.PendingWatermark(1, 100),
                        new AsyncCalls.PendingWatermark(1, 200)),
                calls.pendingWatermarks());
        service.succeed(1);
        calls.poll(0, out);
        assertEquals(List.of("wm 5"), out.left, "nothing before the first barrier");
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of("wm 5", "A:1", "wm 100", "wm 200", "B:2"), out.left);
    }

    @Test
    void capacityBoundsTheRecordsHeld() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        for (int i = 0; i < 4; i++) {
            assertTrue(calls.hasRoom());
            calls.add(record("k" + i, "v", i), 0);
        }
        assertFalse(calls.hasRoom());
        service.succeed(3);
        calls.poll(0, out);
        assertTrue(calls.hasRoom(), "a result that left frees its place");
    }

    @Test
    void aKeyHasAtMostItsLimitOfCallsInFlight() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 1), 0);
        calls.add(record("a", "2", 2), 0);
        calls.add(record("a", "3", 3), 0);
        assertEquals(List.of("a:1", "a:2"), service.calls, "the third waits, held, without a call");
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of("a:1", "a:2", "a:3"), service.calls);
        assertEquals(List.of("A:1"), out.left);
    }

    @Test
    void aTimedOutAttemptIsRetriedAfterItsBackoffAndItsLateCompletionIgnored() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 1), 0);
        assertEquals(1_000, calls.nextDue());
        calls.poll(1_000, out);
        assertEquals(1_100, calls.nextDue(), "the first backoff, 100 ms");
        service.succeed(0);
        calls.poll(1_099, out);
        assertEquals(List.of(), out.left, "the timed-out attempt's completion counts for nothing");
        calls.poll(1_100, out);
        assertEquals(List.of("a:1", "a:1"), service.calls, "called again once the backoff ended");
        service.succeed(1);
        calls.poll(1_100, out);
        assertEquals(List.of("A:1"), out.left);
    }

    @Test
    void aCallThatFailsEveryAttemptLeavesInItsPlaceAsAFailure() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 1), 0);
        calls.add(record("a", "2", 2), 0);
        service.succeed(1);
        service.fail(0);
        calls.poll(0, out);
        calls.poll(100, out);
        service.fail(2);
        calls.poll(100, out);
        calls.poll(300, out);
        assertEquals(List.of("a:1", "a:2", "a:1", "a:1"), service.calls, "retried twice, backoffs 100 then 200 ms");
        service.fail(3);
        calls.poll(300, out);
        assertEquals(List.of("failed a:1 after 3 (IllegalStateException)", "A:2"), out.left);
    }

    @Test
    void aCallThatThrowsIsAFailedAttempt() {
        AsyncCalls<String, String, String> calls = new AsyncCalls<>(
                new AsyncSettings(2, 1, 1_000, 0, 0, 0, AsyncSettings.Order.PER_KEY),
                (k, v) -> {
                    throw new IllegalArgumentException("bad request");
                },
                k -> k,
                () -> {});
        calls.add(record("a", "1", 1), 0);
        calls.poll(0, out);
        assertEquals(List.of("failed a:1 after 1 (IllegalArgumentException)"), out.left);
    }

    @Test
    void aTimeoutThatUsesUpTheRetriesIsATimeoutFailure() {
        AsyncCalls<String, String, String> calls =
                calls(new AsyncSettings(2, 1, 50, 0, 0, 0, AsyncSettings.Order.PER_KEY));
        List<Throwable> errors = new ArrayList<>();
        calls.add(record("a", "1", 1), 0);
        calls.poll(50, new AsyncCalls.Results<>() {
            @Override
            public void result(Record<String, String> record, @Nullable String result) {}

            @Override
            public void failed(Record<String, String> record, Throwable error, int attempts) {
                errors.add(error);
            }
        });
        assertInstanceOf(TimeoutException.class, errors.get(0));
    }

    @Test
    void theHoldIsTheEarliestEventTimeStillHeld() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        assertEquals(Long.MAX_VALUE, calls.hold());
        calls.add(record("a", "1", 30), 0);
        calls.add(record("b", "2", 10), 0);
        calls.add(record("c", "3", 10), 0);
        assertEquals(10, calls.hold());
        service.succeed(1);
        calls.poll(0, out);
        assertEquals(10, calls.hold(), "c at 10 is still held");
        service.succeed(2);
        calls.poll(0, out);
        assertEquals(30, calls.hold());
    }

    @Test
    void aRecordHeldAtTheEndOfTimeStillHolds() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", Long.MAX_VALUE), 0);
        assertEquals(Long.MAX_VALUE - 1, calls.hold(), "Long.MAX_VALUE would read as nothing held");
        calls.add(record("b", "2", Long.MIN_VALUE), 0);
        assertEquals(Long.MIN_VALUE, calls.hold());
    }

    @Test
    void abandonedCallsCompleteIntoNothing() {
        AsyncCalls<String, String, String> calls = calls(PER_KEY);
        calls.add(record("a", "1", 1), 0);
        List<String> held = new ArrayList<>();
        calls.forEachHeld((sequence, r) -> held.add(sequence + "=" + r.value()));
        assertEquals(List.of("0=1"), held);
        calls.abandon();
        service.succeed(0);
        calls.poll(0, out);
        assertEquals(List.of(), out.left);
        assertFalse(calls.completionsWaiting());
        assertEquals(0, calls.size());
    }
}
