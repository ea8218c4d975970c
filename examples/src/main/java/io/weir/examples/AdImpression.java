package io.weir.examples;

/**
 * An ad shown to a user, as the ad server writes it to the impressions topic (JSON, keyed by impression).
 *
 * @param shownAt when it was shown, epoch ms: the event time
 */
public record AdImpression(String impressionId, String user, String ad, long shownAt) {}
