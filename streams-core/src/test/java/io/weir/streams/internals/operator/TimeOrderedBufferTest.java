package io.weir.streams.internals.operator;

import io.weir.streams.internals.testing.RecordingContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a time-ordered buffer holds and when it lets go, one test per rule, over a real RocksDB store: entries
 * are released once time reaches theirs, in time order and then in the order added, and a restored buffer
 * keeps that order.
 */
class TimeOrderedBufferTest {

    private static final String STORE = "waiting";

    @TempDir
    Path dir;

    private RecordingContext context;
    private TimeOrderedBuffer buffer;
    private final List<String> released = new ArrayList<>();

    private TimeOrderedBuffer open() {
        context = new RecordingContext(dir, STORE);
        buffer = new TimeOrderedBuffer(context.stores().cache(STORE));
        return buffer;
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    private void add(long time, String value) {
        buffer.add(time, value.getBytes(StandardCharsets.UTF_8));
    }

    private List<String> release(long time) {
        released.clear();
        buffer.release(time, (at, value) -> released.add(new String(value, StandardCharsets.UTF_8) + "@" + at));
        return List.copyOf(released);
    }

    /** Commits the store, closes it and opens the buffer again over what RocksDB kept: a task restarting. */
    private void restart() {
        context.stores().completeCommit(context.stores().prepareCommit(), Map.of());
        context.close();
        open();
    }

    @Test
    void anEntryIsReleasedWhenTimeReachesItsOwnNotBefore() {
        open();
        add(1_000, "a");
        assertEquals(List.of(), release(999));
        assertEquals(List.of("a@1000"), release(1_000));
    }

    @Test
    void entriesAreReleasedInTimeOrderWhateverTheOrderAdded() {
        open();
        add(3_000, "c");
        add(1_000, "a");
        add(2_000, "b");
        assertEquals(List.of("a@1000", "b@2000", "c@3000"), release(5_000));
    }

    @Test
    void entriesOfOneTimeAreReleasedInTheOrderAdded() {
        open();
        add(1_000, "first");
        add(1_000, "second");
        add(1_000, "third");
        assertEquals(List.of("first@1000", "second@1000", "third@1000"), release(1_000));
    }

    @Test
    void entriesAfterTheTimeStayHeldForALaterRelease() {
        open();
        add(1_000, "a");
        add(1_001, "b");
        assertEquals(List.of("a@1000"), release(1_000));
        assertEquals(1, buffer.size());
        assertEquals(List.of(), release(1_000), "a released entry is released once");
        assertEquals(List.of("b@1001"), release(1_001));
    }

    @Test
    void negativeTimesComeBeforePositiveOnes() {
        open();
        add(5, "positive");
        add(-5, "negative");
        add(Long.MIN_VALUE, "earliest");
        assertEquals(List.of("earliest@" + Long.MIN_VALUE, "negative@-5"), release(-1));
        assertEquals(List.of("positive@5"), release(5));
    }

    @Test
    void releasingThroughTheEndOfTimeReleasesEverythingEvenAtTheLastMillisecond() {
        open();
        add(Long.MAX_VALUE, "last");
        add(0, "zero");
        assertEquals(List.of("zero@0"), release(Long.MAX_VALUE - 1));
        assertEquals(List.of("last@" + Long.MAX_VALUE), release(Long.MAX_VALUE));
        assertEquals(0, buffer.size());
    }

    @Test
    void whatAReleaseAddsIsKeptForALaterReleaseEvenWhenDue() {
        open();
        add(1_000, "a");
        List<String> seen = new ArrayList<>();
        buffer.release(1_000, (at, value) -> {
            seen.add(new String(value, StandardCharsets.UTF_8));
            add(900, "again");
        });
        assertEquals(List.of("a"), seen);
        assertEquals(1, buffer.size());
        assertEquals(List.of("again@900"), release(1_000));
    }

    @Test
    void theSizeCountsTheEntriesHeld() {
        open();
        add(1_000, "a");
        add(1_000, "b");
        add(2_000, "c");
        assertEquals(3, buffer.size());
        release(1_000);
        assertEquals(1, buffer.size());
        release(2_000);
        assertEquals(0, buffer.size());
    }

    @Test
    void aReleasedEntryLeavesTheStore() {
        open();
        add(1_000, "a");
        release(1_000);
        restart();
        assertEquals(0, buffer.size());
        assertEquals(List.of(), release(Long.MAX_VALUE));
    }

    @Test
    void aRestartedBufferKeepsItsEntriesAndTheirOrder() {
        open();
        add(2_000, "b");
        add(1_000, "a1");
        restart();
        assertEquals(2, buffer.size(), "counted again from the store");
        add(1_000, "a2");
        assertEquals(List.of("a1@1000", "a2@1000", "b@2000"), release(2_000), "added after the restart: after a1");
    }
}
