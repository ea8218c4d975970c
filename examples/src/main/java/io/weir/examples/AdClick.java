package io.weir.examples;

/**
 * A click on an ad, as the click tracker writes it to the clicks topic (JSON, keyed by click). A tracker
 * that retries sends the same click id again.
 *
 * @param clickedAt when the user clicked, epoch ms: the event time
 */
public record AdClick(String clickId, String user, String ad, long clickedAt) {}
