package io.weir.streams.internals.operator;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Entries per event time: the questions a watermark advance asks, answered without the store. */
class EventTimeIndexTest {

    private final EventTimeIndex index = new EventTimeIndex();

    @Test
    void entriesAreCountedPerTimeAndInAll() {
        index.add(10);
        index.add(10);
        index.add(20);
        index.remove(10);
        assertEquals(2, index.size());
        assertTrue(index.anyIn(10, 10), "one entry is left at 10");
    }

    @Test
    void anyInIncludesBothBounds() {
        index.add(10);
        assertTrue(index.anyIn(10, 10));
        assertTrue(index.anyIn(5, 10));
        assertTrue(index.anyIn(10, Long.MAX_VALUE));
        assertFalse(index.anyIn(11, 20));
        assertFalse(index.anyIn(Long.MIN_VALUE, 9));
    }

    @Test
    void purgingForgetsEverythingThroughTheBoundAndRemembersIt() {
        index.add(10);
        index.add(20);
        index.add(30);
        assertEquals(Long.MIN_VALUE, index.purgedThrough(), "nothing purged yet");
        assertTrue(index.anyThrough(20));
        index.purgeThrough(20);
        assertFalse(index.anyThrough(20));
        assertEquals(1, index.size());
        assertEquals(20, index.purgedThrough());
        assertTrue(index.anyThrough(Long.MAX_VALUE));
    }

    @Test
    void removingTheLastEntryOfATimeLeavesNoTraceOfIt() {
        index.add(10);
        index.remove(10);
        assertFalse(index.anyThrough(Long.MAX_VALUE));
        assertEquals(0, index.size());
    }

    @Test
    void removingATimeWithNoEntryChangesNothing() {
        index.add(10);
        index.remove(20);
        assertEquals(1, index.size());
    }
}
