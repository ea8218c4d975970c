package io.weir.examples;

/**
 * Something a user did in the mobile app, as written to the {@code app-events} topic (JSON, keyed by user).
 *
 * @param user   who
 * @param screen where in the app
 * @param at     when, epoch ms: the event time (the phone's clock; phones offline send later)
 */
public record AppEvent(String user, String screen, long at) {}
