package io.weir.streams.tools;

import io.weir.streams.internals.reset.Arguments;
import io.weir.streams.internals.reset.Executor;
import io.weir.streams.internals.reset.Plan;
import io.weir.streams.internals.reset.Planner;
import io.weir.streams.internals.reset.Position;
import io.weir.streams.internals.reset.ResetRefused;
import io.weir.streams.internals.reset.ResetRequest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Resets an application so that it processes its input again, as after a bug fix: commits its input
 * topics' offsets to a chosen point (earliest, latest, a time, an offset, or an offset per partition),
 * deletes its internal topics ({@code <application.id>-<name>-changelog} and {@code
 * <application.id>-<name>-repartition}; never a user's topic: side outputs, dead letters and source tables
 * are kept) and clears the local state directory of the instance on this machine. Kafka Streams users know
 * it as {@code kafka-streams-application-reset}; {@code bin/weir-reset} runs {@link #main}.
 *
 * <p>It refuses while the application's consumer group has members: every instance must be stopped. An
 * instance closed without leaving the group (static membership, the default) stays a member until its
 * session times out; {@link #withForce(boolean)} removes such members. It refuses to clear a state directory
 * whose lock an instance holds, and holds that lock itself while it runs.
 *
 * <pre>{@code
 * ApplicationReset reset = ApplicationReset.of("fraud-alerts", "localhost:9092")
 *         .toTime(Instant.parse("2024-05-01T00:00:00Z"))
 *         .withStateDir(Path.of("/var/lib/weir"));
 * System.out.println(reset.plan());   // changes nothing
 * reset.execute();
 * }</pre>
 *
 * <p>Immutable: each {@code withXxx} and {@code toXxx} returns a copy. {@link #plan()} and {@link #execute()}
 * open their own admin client and close it.
 */
public final class ApplicationReset {

    private final ResetRequest request;

    private ApplicationReset(ResetRequest request) {
        this.request = request;
    }

    /**
     * A reset of {@code applicationId} on the cluster at {@code bootstrapServers}: input topics to their
     * earliest offsets, the topics found from the group's committed offsets, no local state cleared.
     *
     * @param applicationId the application's {@code application.id}
     * @param bootstrapServers the cluster, {@code host:port[,host:port...]}
     * @return the reset
     */
    public static ApplicationReset of(String applicationId, String bootstrapServers) {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        return new ApplicationReset(new ResetRequest(
                applicationId,
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                null,
                List.of(),
                new Position.Earliest(),
                Map.of(),
                null,
                false,
                Duration.ofSeconds(60)));
    }

    private ApplicationReset with(Consumer<ResetRequest.Builder> change) {
        return new ApplicationReset(request.with(change));
    }

    private ApplicationReset position(Position position) {
        return with(b -> b.position(position));
    }

    /**
     * The same, with further admin client settings (security settings, for one), which win over the
     * bootstrap servers given before.
     *
     * @param config admin client settings
     * @return a copy with them
     */
    public ApplicationReset withClientConfig(Map<String, ?> config) {
        Map<String, Object> merged = new HashMap<>(request.clientConfig());
        merged.putAll(config);
        return with(b -> b.clientConfig(merged));
    }

    /**
     * The same, resetting the offsets of these topics; by default, the topics the group has committed
     * offsets on, internal topics excepted.
     *
     * @param topics the input topics
     * @return a copy with them
     */
    public ApplicationReset withInputTopics(Collection<String> topics) {
        return with(b -> b.inputTopics(List.copyOf(topics)));
    }

    /**
     * The same, moving these topics to their end: user topics the application writes and reads back, whose
     * records it writes again when it reprocesses.
     *
     * @param topics the intermediate topics
     * @return a copy with them
     */
    public ApplicationReset withIntermediateTopics(Collection<String> topics) {
        return with(b -> b.intermediateTopics(List.copyOf(topics)));
    }

    /**
     * The same, moving the input topics to each partition's first offset (the default).
     *
     * @return a copy that does
     */
    public ApplicationReset toEarliest() {
        return position(new Position.Earliest());
    }

    /**
     * The same, moving the input topics to each partition's end: the input written so far is skipped.
     *
     * @return a copy that does
     */
    public ApplicationReset toLatest() {
        return position(new Position.Latest());
    }

    /**
     * The same, moving the input topics to each partition's first record with a timestamp at or after
     * {@code time}, or to its end when there is none.
     *
     * @param time the time to process from
     * @return a copy that does
     */
    public ApplicationReset toTime(Instant time) {
        return position(new Position.AtTime(Objects.requireNonNull(time, "time")));
    }

    /**
     * The same, moving the input topics to {@code offset} in every partition, brought within each
     * partition's first offset and its end.
     *
     * @param offset the offset, 0 or more
     * @return a copy that does
     */
    public ApplicationReset toOffset(long offset) {
        return position(new Position.AtOffset(offset));
    }

    /**
     * The same, moving one input partition to {@code offset} (brought within its first offset and its end),
     * whatever {@code toXxx} says for the others.
     *
     * @param partition a partition of an input topic
     * @param offset the offset, 0 or more
     * @return a copy that does
     */
    public ApplicationReset withPartitionOffset(TopicPartition partition, long offset) {
        Map<TopicPartition, Long> offsets = new HashMap<>(request.partitionOffsets());
        offsets.put(Objects.requireNonNull(partition, "partition"), offset);
        return with(b -> b.partitionOffsets(offsets));
    }

    /**
     * The same, also clearing this machine's state of the application, {@code <stateDir>/<application.id>}
     * (the application's {@code state.dir}). Every machine that ran an instance needs its state cleared (run
     * the reset there, or delete the directory) before an instance starts there again.
     *
     * @param stateDir the application's {@code state.dir}
     * @return a copy that clears it
     */
    public ApplicationReset withStateDir(Path stateDir) {
        Objects.requireNonNull(stateDir, "stateDir");
        return with(b -> b.stateDir(stateDir));
    }

    /**
     * The same, removing the members still in the group instead of refusing: static members of stopped
     * instances wait in the group until their session times out. Only when no instance runs: a live one
     * comes back, and the reset is then refused.
     *
     * @param force true to remove the group's members
     * @return a copy with that choice
     */
    public ApplicationReset withForce(boolean force) {
        return with(b -> b.force(force));
    }

    /**
     * The same, waiting at most {@code timeout} for each request to Kafka and for deleted topics to go
     * (default 60 s).
     *
     * @param timeout positive
     * @return a copy with it
     */
    public ApplicationReset withTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return with(b -> b.timeout(timeout));
    }

    /**
     * What the reset would do, changing nothing (a dry run).
     *
     * @return the plan; {@link ResetPlan#refused()} when it may not run
     * @throws IllegalStateException when Kafka cannot be asked (the message says what failed)
     */
    public ResetPlan plan() {
        Admin admin = admin();
        try {
            return new ResetPlan(Planner.plan(admin, request, false), true);
        } finally {
            close(admin);
        }
    }

    /**
     * Resets the application: removes the group's members when forced, commits the input topics' new
     * offsets, deletes the internal topics (and waits until the cluster no longer lists them) and clears the
     * local state directory, holding its lock meanwhile.
     *
     * @return what was done
     * @throws ResetRefusedException when the reset may not run (nothing changed); the message says why
     * @throws IllegalStateException when a step fails; the message names it. Running the reset again
     *     finishes it
     */
    public ResetPlan execute() {
        Admin admin = admin();
        try {
            return new ResetPlan(Executor.run(admin, request), false);
        } catch (ResetRefused e) {
            throw refused(e.plan());
        } finally {
            close(admin);
        }
    }

    /** An admin client whose requests give up within the reset's timeout, unless its settings say otherwise. */
    private Admin admin() {
        Map<String, Object> config = new HashMap<>(request.clientConfig());
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, request.timeout().toMillis());
        config.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 30_000));
        return Admin.create(config);
    }

    /** Closes without waiting for requests given up on (an unreachable cluster's), which it cancels. */
    private static void close(Admin admin) {
        admin.close(Duration.ofSeconds(1));
    }

    private static ResetRefusedException refused(Plan plan) {
        return new ResetRefusedException(plan.refusalMessage(), new ResetPlan(plan, false));
    }

    /**
     * The command line of {@code bin/weir-reset}; {@code --help} prints its options. Exits with 0 when done
     * (or planned, with {@code --dry-run}), 1 when refused, 2 for wrong arguments and 3 when a step failed.
     *
     * @param args the command line's arguments
     */
    public static void main(String[] args) {
        int status = run(
                List.of(args),
                new PrintStream(System.out, true, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        System.exit(status);
    }

    /**
     * Runs the command line without exiting: prints the plan to {@code out}, then resets unless it is a dry
     * run; errors go to {@code err}.
     *
     * @param args the command line's arguments
     * @param out where the plan goes
     * @param err where errors go
     * @param clock the clock {@code --by-duration} counts back from
     * @return the exit status: 0 done or planned, 1 refused, 2 wrong arguments, 3 failed
     */
    public static int run(List<String> args, PrintStream out, PrintStream err, Clock clock) {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args, clock);
        } catch (IllegalArgumentException e) {
            err.println("weir-reset: " + e.getMessage());
            err.println();
            err.println(Arguments.USAGE);
            return 2;
        }
        ResetRequest request = arguments.request();
        if (request == null) {
            out.println(Arguments.USAGE);
            return 0;
        }
        ApplicationReset reset = new ApplicationReset(request);
        try {
            if (arguments.dryRun()) {
                ResetPlan plan = reset.plan();
                out.print(plan);
                return plan.refused() ? 1 : 0;
            }
            ResetPlan done = reset.execute();
            out.print(done);
            out.println("\nDone. Start the application's instances again; each recomputes its state from the input.");
            return 0;
        } catch (ResetRefusedException e) {
            out.print(e.plan());
            err.println("weir-reset: refused: " + String.join("; ", e.plan().refusals()));
            return 1;
        } catch (RuntimeException e) {
            err.println("weir-reset: failed: " + e.getMessage());
            if (!arguments.dryRun()) {
                err.println("Fix the cause and run the reset again: it picks up where this one stopped.");
            }
            return 3;
        }
    }
}
