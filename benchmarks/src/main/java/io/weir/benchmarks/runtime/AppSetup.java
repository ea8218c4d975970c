package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.KafkaBroker;

import java.nio.file.Path;

/**
 * Where and how one app instance runs.
 *
 * @param applicationId its consumer group and the prefix of its internal topics
 * @param partitions    the partition count of {@code input} (and of the topics the app creates)
 * @param stateDir      its local state directory; a fresh one means a fresh instance that restores everything
 * @param restore       told about every changelog partition the instance restores
 */
record AppSetup(
        KafkaBroker broker,
        String applicationId,
        String input,
        String output,
        int partitions,
        Path stateDir,
        RestoreProgress restore) {}
