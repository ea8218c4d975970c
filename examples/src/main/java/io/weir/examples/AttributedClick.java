package io.weir.examples;

/** A click with the impression it is attributed to: the same user and ad, shown at most ten minutes before. */
public record AttributedClick(AdClick click, AdImpression impression) {}
