package io.weir.streams.spring;

import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import java.util.Map;
import java.util.TreeMap;

/**
 * The health of the {@link WeirStreams} instance, from its state: {@code RUNNING} and {@code REBALANCING}
 * (a rebalance or a restore under way, the instance alive) are UP; {@code CREATED} and {@code
 * PENDING_SHUTDOWN} are OUT_OF_SERVICE; {@code NOT_RUNNING} and {@code ERROR} are DOWN, an error with its
 * message. Details: the state, and each stream thread's active and standby tasks.
 */
public final class WeirHealthIndicator implements HealthIndicator {

    private final WeirStreams streams;

    public WeirHealthIndicator(WeirStreams streams) {
        this.streams = streams;
    }

    @Override
    public Health health() {
        WeirStreams.State state = streams.state();
        Health.Builder health = new Health.Builder(status(state)).withDetail("state", state.name());
        Map<String, Object> threads = new TreeMap<>();
        for (ThreadMetadata thread : streams.localThreads()) {
            threads.put(
                    thread.name(), Map.of("activeTasks", thread.activeTasks(), "standbyTasks", thread.standbyTasks()));
        }
        if (!threads.isEmpty()) {
            health.withDetail("threads", threads);
        }
        streams.error().ifPresent(e -> health.withDetail("error", String.valueOf(e.getMessage())));
        return health.build();
    }

    static Status status(WeirStreams.State state) {
        return switch (state) {
            case RUNNING, REBALANCING -> Status.UP;
            case CREATED, PENDING_SHUTDOWN -> Status.OUT_OF_SERVICE;
            case NOT_RUNNING, ERROR -> Status.DOWN;
        };
    }
}
