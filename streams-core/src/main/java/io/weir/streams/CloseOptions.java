package io.weir.streams;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link WeirStreams#close(CloseOptions)} stops an instance: how long to wait, and whether to leave
 * the consumer group. Immutable.
 *
 * <p>Leaving matters for static members ({@link StreamsConfig#GROUP_INSTANCE_ID}, on by default): a
 * static member that closes without leaving keeps its tasks until its session times out, so that an
 * instance restarting within that time (a rolling restart, a redeploy) gets them back without a
 * rebalance. An instance that will not come back (scaling in) should leave, so that its tasks move at
 * once. A dynamic member always leaves.
 */
public final class CloseOptions {

    private final Duration timeout;
    private final boolean leaveGroup;

    private CloseOptions(Duration timeout, boolean leaveGroup) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("The close timeout must not be negative: " + timeout);
        }
        this.timeout = timeout;
        this.leaveGroup = leaveGroup;
    }

    /**
     * Wait at most {@code timeout}; do not leave the group (a static member keeps its place).
     *
     * @param timeout the longest to wait for the instance to stop; not negative
     * @return options that wait that long and do not leave the group
     */
    public static CloseOptions within(Duration timeout) {
        return new CloseOptions(Objects.requireNonNull(timeout, "timeout"), false);
    }

    /**
     * The same, leaving the group when {@code leave}: the instance's tasks move to the others at once.
     *
     * @param leave true to leave the consumer group on close
     * @return a copy with that choice
     */
    public CloseOptions withLeaveGroup(boolean leave) {
        return new CloseOptions(timeout, leave);
    }

    /**
     * How long {@code close} waits at most.
     *
     * @return the longest {@code close} waits; zero or more
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether the instance leaves the consumer group when it closes.
     *
     * @return true to leave; false (the default) to keep a static member's place until its session times out
     */
    public boolean leaveGroup() {
        return leaveGroup;
    }

    @Override
    public String toString() {
        return "CloseOptions[timeout=" + timeout + ", leaveGroup=" + leaveGroup + "]";
    }
}
