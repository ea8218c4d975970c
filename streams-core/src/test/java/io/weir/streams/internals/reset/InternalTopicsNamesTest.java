package io.weir.streams.internals.reset;

import io.weir.streams.internals.processor.InternalTopics;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which topic names the reset takes for an application's internal topics. */
class InternalTopicsNamesTest {

    @Test
    void changelogsAndRepartitionTopicsOfTheApplicationOnly() {
        assertTrue(InternalTopics.isInternal("orders", "orders-counts-changelog"));
        assertTrue(InternalTopics.isInternal("orders", "orders-by-card-repartition"));
        assertTrue(InternalTopics.isInternal("orders", "orders-fk-subscription-repartition"));
        assertFalse(InternalTopics.isInternal("orders", "orders-late"), "a side output is the user's");
        assertFalse(InternalTopics.isInternal("orders", "orders-dlq"), "a dead-letter topic is the user's");
        assertFalse(InternalTopics.isInternal("orders", "orders"), "the input itself");
        assertFalse(InternalTopics.isInternal("orders", "orders--changelog"), "no store name");
        assertFalse(InternalTopics.isInternal("orders", "payments-counts-changelog"));
        assertFalse(InternalTopics.isInternal("orders", "ordersx-counts-changelog"));
        assertFalse(InternalTopics.isInternal("orders", "orders-counts-changelog-archive"));
    }
}
