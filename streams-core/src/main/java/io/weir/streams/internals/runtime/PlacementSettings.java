package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;

/**
 * The settings the group leader places tasks by.
 *
 * @param standbyReplicas standby copies per task ({@code num.standby.replicas}), as far as there are
 *     other instances
 * @param maxWarmupReplicas warm-up copies in the whole group at once ({@code max.warmup.replicas}): copies
 *     on the instance a task should move to, kept until it is caught up, beyond the standbys
 * @param acceptableRecoveryLag changelog records a copy may miss and still count as caught up ({@code
 *     acceptable.recovery.lag}): a task becomes active only where its state is caught up, if any instance's is
 */
record PlacementSettings(int standbyReplicas, int maxWarmupReplicas, long acceptableRecoveryLag) {

    static PlacementSettings of(StreamsConfig config) {
        return new PlacementSettings(
                config.standbyReplicas(), config.maxWarmupReplicas(), config.acceptableRecoveryLag());
    }
}
