package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.HostTasks;
import io.weir.streams.internals.topology.TaskId;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The user data of Weir's group protocol: layout 5 and the trailer of later versions ({@link GroupProtocol}
 * says how they evolve). A member's subscription: {@code [layout][active tasks][standby copies with
 * lags][endpoint][process id][transactional id]} and, from version 6, {@code [version]}: the tasks it runs,
 * the copies it keeps (standbys, and state on disk no thread holds) with the changelog records each has not
 * read yet ({@code [count: int][(sub-topology: int, partition: int, lag: long)...]}, {@link Long#MAX_VALUE}
 * when not known yet), its {@code application.server}, the id of its instance (threads of one instance
 * share it), its producer's transactional id (none without exactly-once), and the newest protocol version
 * it speaks (5 when there is no trailer). The assignment of a member: {@code [layout][active
 * tasks][standby tasks][warm-up tasks][error][rejoin: byte][host count][(endpoint, active tasks, standby
 * tasks)...][roster]} and, from version 6, {@code [version]}: its tasks, its copies (the warm-ups among
 * them: copies of tasks it is to run once caught up), why there are none if the leader could not assign,
 * whether to rejoin at once (a task was withheld until its old owner lets go, or the member spoke a
 * layout the leader does not read), every instance's endpoint with its tasks, so that each instance can
 * route queries, the transactional ids of the generation's members ({@code [count: int][string...]}), so
 * that whichever member leads the next rebalance knows whose transactions to abort if they are gone, and
 * the group's version in use. Tasks are {@code [count: int][(sub-topology: int, partition: int)...]};
 * strings are {@code [length: int, -1 for none][UTF-8]}. Bytes after the fields a reader knows are a later
 * version's, and skipped.
 */
final class AssignorMessages {

    private AssignorMessages() {}

    /**
     * What a member says when it joins: {@code standbyLags}: its standby copies, each with the changelog
     * records it has not read yet; {@code process}: its instance's id, empty when unknown; {@code version}:
     * the newest protocol version it speaks; {@code layout}: the layout it wrote, {@link GroupProtocol#LAYOUT}
     * unless it is another release's that this one cannot read (then the other fields are empty).
     */
    record Subscription(
            Set<TaskId> owned,
            Map<TaskId, Long> standbyLags,
            @Nullable HostInfo endpoint,
            String process,
            @Nullable String transactionalId,
            int version,
            int layout) {

        Subscription(
                Set<TaskId> owned,
                Map<TaskId, Long> standbyLags,
                @Nullable HostInfo endpoint,
                String process,
                @Nullable String transactionalId) {
            this(owned, standbyLags, endpoint, process, transactionalId, GroupProtocol.LATEST, GroupProtocol.LAYOUT);
        }

        Subscription(Set<TaskId> owned, Map<TaskId, Long> standbyLags, @Nullable HostInfo endpoint, String process) {
            this(owned, standbyLags, endpoint, process, null);
        }

        /** Whether this release could read what the member said. */
        boolean readable() {
            return layout == GroupProtocol.LAYOUT;
        }

        /** The same subscription, saying it owns {@code tasks}. */
        Subscription owning(Set<TaskId> tasks) {
            return new Subscription(tasks, standbyLags, endpoint, process, transactionalId, version, layout);
        }

        /** The tasks this member keeps standby copies of. */
        Set<TaskId> standbys() {
            return standbyLags.keySet();
        }
    }

    /**
     * What a member is given: {@code standbys}: the copies to keep, {@code warmups} among them;
     * {@code hosts}: every instance with an endpoint, and its tasks; {@code roster}: the transactional ids
     * of the generation's members; {@code version}: the group's version in use.
     */
    record Assignment(
            Set<TaskId> tasks,
            Set<TaskId> standbys,
            Set<TaskId> warmups,
            @Nullable String error,
            Map<HostInfo, HostTasks> hosts,
            boolean rejoin,
            Set<String> roster,
            int version) {
        Assignment(
                Set<TaskId> tasks,
                Set<TaskId> standbys,
                Set<TaskId> warmups,
                @Nullable String error,
                Map<HostInfo, HostTasks> hosts,
                boolean rejoin,
                Set<String> roster) {
            this(tasks, standbys, warmups, error, hosts, rejoin, roster, GroupProtocol.LATEST);
        }

        Assignment(Set<TaskId> tasks, @Nullable String error, Map<HostInfo, HostTasks> hosts, int version) {
            this(tasks, Set.of(), Set.of(), error, hosts, false, Set.of(), version);
        }
    }

    static ByteBuffer subscription(Subscription s) {
        Set<TaskId> owned = s.owned();
        Map<TaskId, Long> standbyLags = s.standbyLags();
        HostInfo endpoint = s.endpoint();
        ByteBuffer buffer = ByteBuffer.allocate(tasksSize(owned)
                + 4
                + standbyLags.size() * 16
                + 2
                + stringSize(endpoint == null ? null : endpoint.toString())
                + stringSize(s.process())
                + stringSize(s.transactionalId())
                + trailerSize(s.version()));
        buffer.putShort((short) GroupProtocol.LAYOUT);
        putTasks(buffer, owned);
        buffer.putInt(standbyLags.size());
        standbyLags.forEach(
                (t, lag) -> buffer.putInt(t.subtopology()).putInt(t.partition()).putLong(lag));
        putString(buffer, endpoint == null ? null : endpoint.toString());
        putString(buffer, s.process());
        putString(buffer, s.transactionalId());
        putTrailer(buffer, s.version());
        return buffer.flip();
    }

    static Subscription subscription(@Nullable ByteBuffer data) {
        if (data == null || data.remaining() == 0) {
            return new Subscription(Set.of(), Map.of(), null, "");
        }
        ByteBuffer buffer = data.duplicate();
        int layout = buffer.getShort();
        if (layout != GroupProtocol.LAYOUT) {
            return new Subscription(Set.of(), Map.of(), null, "", null, layout, layout);
        }
        Set<TaskId> owned = tasks(buffer);
        int copies = buffer.getInt();
        Map<TaskId, Long> standbys = new TreeMap<>();
        for (int i = 0; i < copies; i++) {
            standbys.put(new TaskId(buffer.getInt(), buffer.getInt()), buffer.getLong());
        }
        String endpoint = string(buffer);
        String process = string(buffer);
        String transactionalId = string(buffer);
        return new Subscription(
                owned,
                standbys,
                endpoint == null ? null : HostInfo.parse(endpoint),
                process == null ? "" : process,
                transactionalId,
                trailerVersion(buffer),
                layout);
    }

    static ByteBuffer assignment(Assignment a) {
        int size = 2
                + tasksSize(a.tasks())
                + tasksSize(a.standbys())
                + tasksSize(a.warmups())
                + stringSize(a.error())
                + 1
                + 4
                + 4
                + trailerSize(a.version());
        for (Map.Entry<HostInfo, HostTasks> host : a.hosts().entrySet()) {
            size += stringSize(host.getKey().toString())
                    + tasksSize(host.getValue().active())
                    + tasksSize(host.getValue().standbys());
        }
        for (String id : a.roster()) {
            size += stringSize(id);
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort((short) GroupProtocol.LAYOUT);
        putTasks(buffer, a.tasks());
        putTasks(buffer, a.standbys());
        putTasks(buffer, a.warmups());
        putString(buffer, a.error());
        buffer.put((byte) (a.rejoin() ? 1 : 0));
        buffer.putInt(a.hosts().size());
        a.hosts().forEach((host, hostTasks) -> {
            putString(buffer, host.toString());
            putTasks(buffer, hostTasks.active());
            putTasks(buffer, hostTasks.standbys());
        });
        buffer.putInt(a.roster().size());
        a.roster().forEach(id -> putString(buffer, id));
        putTrailer(buffer, a.version());
        return buffer.flip();
    }

    static Assignment assignment(@Nullable ByteBuffer data) {
        if (data == null || data.remaining() == 0) {
            return new Assignment(Set.of(), null, Map.of(), GroupProtocol.OLDEST);
        }
        ByteBuffer buffer = data.duplicate();
        int layout = buffer.getShort();
        if (layout != GroupProtocol.LAYOUT) {
            throw new IllegalStateException("The group's leader wrote its assignment in Weir group protocol layout "
                    + layout + ", which this release does not read (it reads layout " + GroupProtocol.LAYOUT
                    + ", versions " + GroupProtocol.OLDEST + " to " + GroupProtocol.LATEST
                    + "): a leader writes only what every member speaks, so the leader's release is not adjacent to "
                    + "this one (docs/guides/operating.md#rolling-upgrades)");
        }
        Set<TaskId> tasks = tasks(buffer);
        Set<TaskId> standbys = tasks(buffer);
        Set<TaskId> warmups = tasks(buffer);
        String error = string(buffer);
        boolean rejoin = buffer.get() != 0;
        int hostCount = buffer.getInt();
        Map<HostInfo, HostTasks> hosts = new LinkedHashMap<>();
        for (int i = 0; i < hostCount; i++) {
            HostInfo host = HostInfo.parse(Objects.requireNonNull(string(buffer), "an endpoint"));
            Set<TaskId> active = tasks(buffer);
            hosts.put(host, new HostTasks(active, tasks(buffer)));
        }
        int members = buffer.getInt();
        Set<String> roster = new TreeSet<>();
        for (int i = 0; i < members; i++) {
            roster.add(Objects.requireNonNull(string(buffer), "a transactional id"));
        }
        return new Assignment(tasks, standbys, warmups, error, hosts, rejoin, roster, trailerVersion(buffer));
    }

    private static int tasksSize(Set<TaskId> tasks) {
        return 4 + tasks.size() * 8;
    }

    private static int stringSize(@Nullable String s) {
        return 4 + (s == null ? 0 : utf8(s).length);
    }

    /** Version 5 has no trailer: releases before it refuse nothing after the fields they know, but write none. */
    private static int trailerSize(int version) {
        return version > GroupProtocol.OLDEST ? 2 : 0;
    }

    private static void putTrailer(ByteBuffer buffer, int version) {
        if (version > GroupProtocol.OLDEST) {
            buffer.putShort((short) version);
        }
    }

    /** The version in the trailer, or 5 when there is none; a later version's fields after it are skipped. */
    private static int trailerVersion(ByteBuffer buffer) {
        return buffer.remaining() >= 2 ? buffer.getShort() : GroupProtocol.OLDEST;
    }

    private static void putTasks(ByteBuffer buffer, Set<TaskId> tasks) {
        buffer.putInt(tasks.size());
        for (TaskId t : tasks) {
            buffer.putInt(t.subtopology()).putInt(t.partition());
        }
    }

    private static Set<TaskId> tasks(ByteBuffer buffer) {
        int n = buffer.getInt();
        Set<TaskId> tasks = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new TaskId(buffer.getInt(), buffer.getInt()));
        }
        return tasks;
    }

    private static void putString(ByteBuffer buffer, @Nullable String s) {
        if (s == null) {
            buffer.putInt(-1);
            return;
        }
        byte[] bytes = utf8(s);
        buffer.putInt(bytes.length).put(bytes);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static @Nullable String string(ByteBuffer buffer) {
        int length = buffer.getInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
