package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.task.TaskId;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The user data of Weir's group protocol, version 2. A member's subscription: {@code [version][task
 * count][(sub-topology, partition)...][endpoint]}, the tasks it owns and its {@code application.server}.
 * The assignment of a member: {@code [version][its tasks][error][host count][(endpoint, tasks)...]}:
 * its tasks, why there are none if the leader could not assign, and every instance's endpoint with the
 * tasks it was given, so that each instance can route queries. Strings are {@code [length: int, -1 for
 * none][UTF-8]}.
 */
final class AssignorMessages {

    private static final short VERSION = 2;

    private AssignorMessages() {}

    /** What a member says when it joins. */
    record Subscription(Set<TaskId> owned, @Nullable HostInfo endpoint) {}

    /** What a member is given; {@code hosts}: every instance with an endpoint, and its tasks. */
    record Assignment(Set<TaskId> tasks, @Nullable String error, Map<HostInfo, Set<TaskId>> hosts) {}

    static ByteBuffer subscription(Set<TaskId> owned, @Nullable HostInfo endpoint) {
        ByteBuffer buffer = ByteBuffer.allocate(
                2 + 4 + owned.size() * 8 + 4 + (endpoint == null ? 0 : utf8(endpoint.toString()).length));
        buffer.putShort(VERSION);
        putTasks(buffer, owned);
        putString(buffer, endpoint == null ? null : endpoint.toString());
        return buffer.flip();
    }

    static Subscription subscription(@Nullable ByteBuffer data) {
        if (data == null || data.remaining() == 0) {
            return new Subscription(Set.of(), null);
        }
        ByteBuffer buffer = versioned(data);
        Set<TaskId> owned = tasks(buffer);
        String endpoint = string(buffer);
        return new Subscription(owned, endpoint == null ? null : HostInfo.parse(endpoint));
    }

    static ByteBuffer assignment(Set<TaskId> tasks, @Nullable String error, Map<HostInfo, Set<TaskId>> hosts) {
        int size = 2 + 4 + tasks.size() * 8 + 4 + (error == null ? 0 : utf8(error).length) + 4;
        for (Map.Entry<HostInfo, Set<TaskId>> host : hosts.entrySet()) {
            size += 4
                    + utf8(host.getKey().toString()).length
                    + 4
                    + host.getValue().size() * 8;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort(VERSION);
        putTasks(buffer, tasks);
        putString(buffer, error);
        buffer.putInt(hosts.size());
        hosts.forEach((host, hostTasks) -> {
            putString(buffer, host.toString());
            putTasks(buffer, hostTasks);
        });
        return buffer.flip();
    }

    static Assignment assignment(@Nullable ByteBuffer data) {
        if (data == null || data.remaining() == 0) {
            return new Assignment(Set.of(), null, Map.of());
        }
        ByteBuffer buffer = versioned(data);
        Set<TaskId> tasks = tasks(buffer);
        String error = string(buffer);
        int hostCount = buffer.getInt();
        Map<HostInfo, Set<TaskId>> hosts = new LinkedHashMap<>();
        for (int i = 0; i < hostCount; i++) {
            HostInfo host = HostInfo.parse(Objects.requireNonNull(string(buffer), "an endpoint"));
            hosts.put(host, tasks(buffer));
        }
        return new Assignment(tasks, error, hosts);
    }

    private static ByteBuffer versioned(ByteBuffer data) {
        ByteBuffer buffer = data.duplicate();
        short version = buffer.getShort();
        if (version != VERSION) {
            throw new IllegalStateException("Weir group protocol version " + version + " is not " + VERSION
                    + ": every instance of an application must run the same Weir version");
        }
        return buffer;
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
