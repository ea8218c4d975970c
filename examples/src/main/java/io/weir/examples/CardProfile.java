package io.weir.examples;

/**
 * What the bank knows about a card, as written to the compacted {@code card-profiles} topic (JSON, keyed by
 * card; a null value deletes the card).
 */
public record CardProfile(String card, String holder, String country) {}
