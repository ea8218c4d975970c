package io.weir.streams.internals.reset;

import io.weir.streams.internals.state.ProcessId;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a reset of one application will do, found by {@link Planner} without changing anything, and how
 * it prints. Refused when {@link #refusals} is not empty.
 *
 * @param applicationId the application
 * @param groupState the consumer group's state as the coordinator reports it
 * @param members the members in the group, described for a person (none when it may be reset)
 * @param removeMembers whether the reset removes {@code members} first ({@code --force})
 * @param topicsToDelete the application's internal topics that exist
 * @param internalOffsets the partitions of internal topics the group has committed offsets on (deleted with them)
 * @param position where the input topics go
 * @param inputMoves the input partitions' offsets, from and to
 * @param intermediateMoves the intermediate topics' partitions, moved to their end
 * @param stateDirectory the local directory to clear, or null when none was named
 * @param stateEntries the entries of {@code stateDirectory} the reset deletes
 * @param notes what an operator should know that does not stop the reset
 * @param refusals why the reset may not run; empty when it may
 */
public record Plan(
        String applicationId,
        String groupState,
        List<String> members,
        boolean removeMembers,
        List<String> topicsToDelete,
        List<TopicPartition> internalOffsets,
        Position position,
        List<PartitionMove> inputMoves,
        List<PartitionMove> intermediateMoves,
        @Nullable Path stateDirectory,
        List<String> stateEntries,
        List<String> notes,
        List<String> refusals) {

    public Plan {
        members = List.copyOf(members);
        topicsToDelete = List.copyOf(topicsToDelete);
        internalOffsets = List.copyOf(internalOffsets);
        inputMoves = List.copyOf(inputMoves);
        intermediateMoves = List.copyOf(intermediateMoves);
        stateEntries = List.copyOf(stateEntries);
        notes = List.copyOf(notes);
        refusals = List.copyOf(refusals);
    }

    public boolean refused() {
        return !refusals.isEmpty();
    }

    /** The offsets the group will have committed: input partitions, then intermediate ones. */
    public Map<TopicPartition, Long> newOffsets() {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        inputMoves.forEach(m -> offsets.put(m.partition(), m.to()));
        intermediateMoves.forEach(m -> offsets.put(m.partition(), m.to()));
        return offsets;
    }

    /** The plan for a person: each step with what it touches; {@code dryRun} says nothing will change. */
    public String render(boolean dryRun) {
        StringBuilder out = new StringBuilder();
        out.append("Reset of application '").append(applicationId).append('\'');
        out.append(dryRun ? " -- DRY RUN, nothing is changed\n" : "\n");
        int step = 1;

        out.append('\n')
                .append(step++)
                .append(". Consumer group '")
                .append(applicationId)
                .append("': ");
        if (members.isEmpty()) {
            out.append("no members (").append(groupState).append(")\n");
        } else {
            out.append(members.size())
                    .append(" member(s) (")
                    .append(groupState)
                    .append(removeMembers ? "), removed first (--force):\n" : "):\n");
            members.forEach(m -> out.append("     ").append(m).append('\n'));
        }

        out.append('\n')
                .append(step++)
                .append(". Reset the group's offsets of the input topics to ")
                .append(position.describe());
        if (inputMoves.isEmpty()) {
            out.append(": no input partitions\n");
        } else {
            out.append(":\n");
            moves(out, inputMoves);
        }
        if (!intermediateMoves.isEmpty()) {
            out.append('\n').append(step++).append(". Move the intermediate topics to their end:\n");
            moves(out, intermediateMoves);
        }

        out.append('\n').append(step++).append(". Delete the internal topics");
        if (topicsToDelete.isEmpty()) {
            out.append(": none exist\n");
        } else {
            out.append(" (").append(topicsToDelete.size()).append("), with the group's offsets on them:\n");
            topicsToDelete.forEach(t -> out.append("     ").append(t).append('\n'));
        }

        out.append('\n').append(step).append(". Local state: ");
        if (stateDirectory == null) {
            out.append("not touched (no state directory given; clear it on every machine that ran an instance)\n");
        } else if (stateEntries.isEmpty()) {
            out.append(stateDirectory).append(" holds no state: nothing to clear\n");
        } else {
            out.append("clear ")
                    .append(stateDirectory)
                    .append(", keeping the lock and the instance's identity (")
                    .append(ProcessId.FILE)
                    .append("); deletes:\n");
            out.append("     ").append(String.join(", ", stateEntries)).append('\n');
        }

        if (!notes.isEmpty()) {
            out.append("\nNotes:\n");
            notes.forEach(n -> out.append("  - ").append(n).append('\n'));
        }
        if (!refusals.isEmpty()) {
            out.append("\nREFUSED: the reset cannot run:\n");
            refusals.forEach(r -> out.append("  - ").append(r).append('\n'));
        }
        return out.toString();
    }

    private static void moves(StringBuilder out, List<PartitionMove> moves) {
        int width = moves.stream()
                .mapToInt(m -> m.partition().toString().length())
                .max()
                .orElse(0);
        for (PartitionMove m : moves) {
            String name = m.partition().toString();
            out.append("     ")
                    .append(name)
                    .append(" ".repeat(width - name.length()))
                    .append("  ")
                    .append(m.from() == null ? "(none)" : String.valueOf(m.from()))
                    .append(" -> ")
                    .append(m.to());
            if (m.note() != null) {
                out.append("   (").append(m.note()).append(')');
            }
            out.append('\n');
        }
    }

    /** The refusals as one message, for an exception. */
    public String refusalMessage() {
        return "Reset of application '" + applicationId + "' refused:\n  - "
                + refusals.stream().collect(Collectors.joining("\n  - "));
    }
}
