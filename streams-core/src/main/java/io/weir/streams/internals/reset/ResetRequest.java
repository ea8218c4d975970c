package io.weir.streams.internals.reset;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a reset is asked to do (the public {@code ApplicationReset}'s options, or the command line's).
 *
 * @param applicationId the application: its consumer group and the prefix of its internal topics
 * @param clientConfig the admin client's settings, {@code bootstrap.servers} among them
 * @param inputTopics the topics whose offsets to reset, or null for those the group has committed
 * @param intermediateTopics user topics the application writes and reads back, moved to their end
 * @param position where the input topics' offsets go
 * @param partitionOffsets offsets for single partitions, which win over {@code position}
 * @param stateDir the state.dir whose {@code <application.id>} directory to clear, or null to leave local state
 * @param force whether to remove members still in the group
 * @param timeout how long each request to Kafka, and the wait for deleted topics, may take
 */
public record ResetRequest(
        String applicationId,
        Map<String, Object> clientConfig,
        @Nullable List<String> inputTopics,
        List<String> intermediateTopics,
        Position position,
        Map<TopicPartition, Long> partitionOffsets,
        @Nullable Path stateDir,
        boolean force,
        Duration timeout) {

    public ResetRequest {
        if (applicationId.isBlank()) {
            throw new IllegalArgumentException("The application id must not be blank");
        }
        clientConfig = Map.copyOf(clientConfig);
        inputTopics = inputTopics == null ? null : List.copyOf(inputTopics);
        intermediateTopics = List.copyOf(intermediateTopics);
        partitionOffsets = Map.copyOf(partitionOffsets);
        partitionOffsets.forEach((tp, offset) -> {
            if (offset < 0) {
                throw new IllegalArgumentException("An offset must not be negative: " + tp + "=" + offset);
            }
        });
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("The timeout must be positive: " + timeout);
        }
    }

    /** A copy with what {@code change} sets on a builder that starts from this request's fields. */
    public ResetRequest with(Consumer<Builder> change) {
        Builder builder = new Builder(this);
        change.accept(builder);
        return builder.build();
    }

    /** The fields of a request being changed; see {@link ResetRequest#with}. Used by one thread. */
    public static final class Builder {
        private final String applicationId;
        private Map<String, Object> clientConfig;
        private @Nullable List<String> inputTopics;
        private List<String> intermediateTopics;
        private Position position;
        private Map<TopicPartition, Long> partitionOffsets;
        private @Nullable Path stateDir;
        private boolean force;
        private Duration timeout;

        private Builder(ResetRequest r) {
            this.applicationId = r.applicationId;
            this.clientConfig = r.clientConfig;
            this.inputTopics = r.inputTopics;
            this.intermediateTopics = r.intermediateTopics;
            this.position = r.position;
            this.partitionOffsets = r.partitionOffsets;
            this.stateDir = r.stateDir;
            this.force = r.force;
            this.timeout = r.timeout;
        }

        public Builder clientConfig(Map<String, Object> value) {
            this.clientConfig = value;
            return this;
        }

        public Builder inputTopics(List<String> value) {
            this.inputTopics = value;
            return this;
        }

        public Builder intermediateTopics(List<String> value) {
            this.intermediateTopics = value;
            return this;
        }

        public Builder position(Position value) {
            this.position = value;
            return this;
        }

        public Builder partitionOffsets(Map<TopicPartition, Long> value) {
            this.partitionOffsets = value;
            return this;
        }

        public Builder stateDir(Path value) {
            this.stateDir = value;
            return this;
        }

        public Builder force(boolean value) {
            this.force = value;
            return this;
        }

        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        private ResetRequest build() {
            return new ResetRequest(
                    applicationId,
                    clientConfig,
                    inputTopics,
                    intermediateTopics,
                    position,
                    partitionOffsets,
                    stateDir,
                    force,
                    timeout);
        }
    }

    /** The application's local directory under {@link #stateDir}, or null. */
    public @Nullable Path applicationStateDir() {
        return stateDir == null ? null : stateDir.resolve(applicationId);
    }
}
