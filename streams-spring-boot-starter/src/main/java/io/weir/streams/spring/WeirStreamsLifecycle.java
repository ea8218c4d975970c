package io.weir.streams.spring;

import io.weir.streams.WeirStreams;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;

/**
 * Starts the {@link WeirStreams} instance when the application context has started its beans, and closes
 * it (committing, and leaving its stores ready for the next start) when the context closes, within
 * {@code weir.spring.close-timeout}. The instance runs in the background: its state moves to {@code
 * RUNNING} once its tasks are restored, which the health indicator's {@code state} detail shows.
 */
public final class WeirStreamsLifecycle implements SmartLifecycle {

    private final WeirStreams streams;
    private final Duration closeTimeout;
    private final boolean autoStartup;
    private volatile boolean started;

    WeirStreamsLifecycle(WeirStreams streams, Duration closeTimeout, boolean autoStartup) {
        this.streams = streams;
        this.closeTimeout = closeTimeout;
        this.autoStartup = autoStartup;
    }

    @Override
    public void start() {
        if (streams.state() == WeirStreams.State.CREATED) {
            streams.start();
        }
        started = true;
    }

    @Override
    public void stop() {
        streams.close(closeTimeout);
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }
}
