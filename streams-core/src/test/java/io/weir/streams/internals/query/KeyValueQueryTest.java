package io.weir.streams.internals.query;

import io.weir.streams.internals.state.InMemoryBytesStore;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreLag;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of a query over the copies of a store one instance holds, one test per rule, on real
 * in-memory stores: a restoring copy is never read; a closed copy is gone; a scan merges the copies in
 * key order; a close never waits for a scan's user code.
 */
class KeyValueQueryTest {

    private final LocalStores local = new LocalStores();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final KeyValueQuery<String, String> query = new KeyValueQuery<>(
            KeyValueView.plain("s", Serdes.String(), Serdes.String()),
            new StoreCopies("s", local, stopped::get, false, Long.MAX_VALUE));

    private static InMemoryBytesStore storeWith(String... keys) {
        InMemoryBytesStore store = InMemoryBytesStore.create("s");
        StoreBatch batch = new StoreBatch();
        for (String key : keys) {
            batch.put(key.getBytes(StandardCharsets.UTF_8), ("v-" + key).getBytes(StandardCharsets.UTF_8));
        }
        store.write(batch);
        return store;
    }

    @Test
    void aRestoringCopyIsNeverReadAndSaysSo() {
        LocalStores.TaskHosting task = local.forTask(new TaskId(0, 0));
        task.host("s", storeWith("a"));
        StoreUnavailableException e = assertThrows(StoreUnavailableException.class, () -> query.get("a"));
        assertEquals(Reason.RESTORING, e.reason());
        assertTrue(e.retriable());
        task.ready();
        assertEquals("v-a", query.get("a"));
    }

    @Test
    void aPointReadAnsweredByAReadyCopyIgnoresAnotherCopyThatIsRestoring() {
        LocalStores.TaskHosting ready = local.forTask(new TaskId(0, 0));
        ready.host("s", storeWith("a"));
        ready.ready();
        local.forTask(new TaskId(0, 1)).host("s", storeWith("b"));
        assertEquals("v-a", query.get("a"));
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> query.get("b"))
                        .reason());
        assertEquals(
                Reason.RESTORING,
                assertThrows(StoreUnavailableException.class, () -> query.forEach((k, v) -> {}))
                        .reason(),
                "a scan without a restoring copy's part would be wrong");
    }

    @Test
    void aClosedCopyIsGoneAndWithNoCopyTheStoreIsNotLocal() {
        LocalStores.TaskHosting task = local.forTask(new TaskId(0, 0));
        task.host("s", storeWith("a"));
        task.ready();
        task.close();
        StoreUnavailableException e = assertThrows(StoreUnavailableException.class, () -> query.get("a"));
        assertEquals(Reason.NOT_LOCAL, e.reason());
        assertTrue(e.retriable());
    }

    @Test
    void aStoppedApplicationIsNotRunningAndNotRetriable() {
        stopped.set(true);
        StoreUnavailableException e = assertThrows(StoreUnavailableException.class, () -> query.get("a"));
        assertEquals(Reason.NOT_RUNNING, e.reason());
        assertFalse(e.retriable());
    }

    @Test
    void aScanMergesTheCopiesInKeyOrder() {
        LocalStores.TaskHosting first = local.forTask(new TaskId(0, 0));
        first.host("s", storeWith("a", "d", "e"));
        LocalStores.TaskHosting second = local.forTask(new TaskId(0, 1));
        second.host("s", storeWith("b", "c", "f"));
        first.ready();
        second.ready();
        List<String> keys = new ArrayList<>();
        query.forEach((k, v) -> keys.add(k));
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), keys);
        List<String> range = new ArrayList<>();
        query.range("b", "e", (k, v) -> range.add(k));
        assertEquals(List.of("b", "c", "d"), range);
        assertNull(query.get("z"));
    }

    @Test
    void aCloseDoesNotWaitForAScanAndTheScanThenFailsRetriably() throws Exception {
        LocalStores.TaskHosting task = local.forTask(new TaskId(0, 0));
        String[] keys = new String[StoreCopies.BATCH + 500];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("k%05d", i);
        }
        task.host("s", storeWith(keys));
        task.ready();
        CountDownLatch scanning = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger seen = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread scan = new Thread(() -> {
            try {
                query.forEach((k, v) -> {
                    seen.incrementAndGet();
                    scanning.countDown();
                    try {
                        finish.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        scan.start();
        assertTrue(scanning.await(10, TimeUnit.SECONDS));
        Thread close = new Thread(task::close);
        close.start();
        close.join(10_000);
        assertFalse(close.isAlive(), "the close did not wait for the scan's action");
        assertTrue(scan.isAlive(), "which is still running");
        finish.countDown();
        scan.join(10_000);
        assertEquals(StoreCopies.BATCH, seen.get(), "the batch read before the close is given");
        StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class, failure.get());
        assertEquals(Reason.NOT_LOCAL, e.reason());
        assertTrue(e.retriable());
    }

    @Test
    void aScanOverManyBatchesGivesEveryEntryOnceInOrderAndAScanLimitStopsIt() {
        LocalStores.TaskHosting first = local.forTask(new TaskId(0, 0));
        LocalStores.TaskHosting second = local.forTask(new TaskId(0, 1));
        List<String> odd = new ArrayList<>();
        List<String> even = new ArrayList<>();
        for (int i = 0; i < 2 * StoreCopies.BATCH + 7; i++) {
            (i % 2 == 0 ? even : odd).add(String.format("k%05d", i));
        }
        first.host("s", storeWith(even.toArray(String[]::new)));
        second.host("s", storeWith(odd.toArray(String[]::new)));
        first.ready();
        second.ready();
        List<String> keys = new ArrayList<>();
        query.forEach((k, v) -> keys.add(k));
        assertEquals(2 * StoreCopies.BATCH + 7, keys.size());
        assertEquals(keys.stream().sorted().toList(), keys);
        KeyValueQuery<String, String> limited = new KeyValueQuery<>(
                KeyValueView.plain("s", Serdes.String(), Serdes.String()),
                new StoreCopies("s", local, stopped::get, false, 5));
        List<String> five = new ArrayList<>();
        limited.forEach((k, v) -> five.add(k));
        assertEquals(keys.subList(0, 5), five);
    }

    @Test
    void aStandbyCopyIsReadOnlyByStaleReadsAtOnceAndAnActiveCopyOfTheSameTaskWins() {
        KeyValueQuery<String, String> stale = new KeyValueQuery<>(
                KeyValueView.plain("s", Serdes.String(), Serdes.String()),
                new StoreCopies("s", local, stopped::get, true, Long.MAX_VALUE));
        LocalStores.TaskHosting copy = local.forStandby(new TaskId(0, 1), Set.of("s"), name -> 7);
        copy.host("s", storeWith("b"));
        assertEquals(
                Reason.NOT_LOCAL,
                assertThrows(StoreUnavailableException.class, () -> query.get("b"))
                        .reason());
        assertEquals("v-b", stale.get("b"), "a copy needs no restore to be read");
        assertEquals(Map.of("s", Map.of(1, new StoreLag(true, 7))), local.lags());
        LocalStores.TaskHosting active = local.forTask(new TaskId(0, 1));
        active.host("s", storeWith("c"));
        active.ready();
        assertNull(stale.get("b"), "the active copy answers for its task");
        assertEquals("v-c", stale.get("c"));
        copy.close();
        assertEquals(Map.of("s", Map.of(1, new StoreLag(false, 0))), local.lags());
    }

    @Test
    void aStandbyCopyOffersOnlyTheStoresItFollows() {
        KeyValueQuery<String, String> stale = new KeyValueQuery<>(
                KeyValueView.plain("s", Serdes.String(), Serdes.String()),
                new StoreCopies("s", local, stopped::get, true, Long.MAX_VALUE));
        local.forStandby(new TaskId(0, 0), Set.of("other"), name -> 0).host("s", storeWith("a"));
        assertEquals(
                Reason.NOT_LOCAL,
                assertThrows(StoreUnavailableException.class, () -> stale.get("a"))
                        .reason());
    }
}
