package io.weir.streams.spring;

import io.weir.streams.WeirStreams;

/**
 * Adjusts the auto-configured {@link WeirStreams} before it starts: set its state listener, uncaught
 * exception handler or restore listener. Every bean of this type is applied, in {@code @Order}.
 */
@FunctionalInterface
public interface WeirStreamsCustomizer {

    /**
     * Adjusts the instance, after it is made and before it starts.
     *
     * @param streams the auto-configured instance, not started
     */
    void customize(WeirStreams streams);
}
