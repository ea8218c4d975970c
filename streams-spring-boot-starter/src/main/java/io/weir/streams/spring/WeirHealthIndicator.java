package io.weir.streams.spring;

import io.weir.streams.ThreadMetadata;
import io.weir.streams.ThreadStall;
import io.weir.streams.WeirStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The health of the {@link WeirStreams} instance, from its state: {@code RUNNING} and {@code REBALANCING}
 * (a rebalance or a restore under way, the instance alive) are UP, unless a stream thread is stalled
 * ({@link WeirStreams#stalls()}: it commits nothing), which is DOWN; {@code CREATED} and {@code
 * PENDING_SHUTDOWN} are OUT_OF_SERVICE; {@code NOT_RUNNING} and {@code ERROR} are DOWN, an error with its
 * message. Details: the state, each stream thread's active and standby tasks, and each stall's reason.
 */
public final class WeirHealthIndicator implements HealthIndicator {

    private final WeirStreams streams;

    /**
     * The health of {@code streams}, read each time it is asked for.
     *
     * @param streams the instance to report on
     */
    public WeirHealthIndicator(WeirStreams streams) {
        this.streams = streams;
    }

    @Override
    public Health health() {
        WeirStreams.State state = streams.state();
        List<ThreadStall> stalls = streams.stalls();
        Status status = status(state);
        Health.Builder health = new Health.Builder(status.equals(Status.UP) && !stalls.isEmpty() ? Status.DOWN : status)
                .withDetail("state", state.name());
        if (!stalls.isEmpty()) {
            Map<String, Object> stalled = new TreeMap<>();
            stalls.forEach(
                    s -> stalled.put(s.thread(), Map.of("since", s.since().toString(), "reason", s.reason())));
            health.withDetail("stalled", stalled);
        }
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
