package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.query.HostTasks;
import io.weir.streams.internals.topology.TaskId;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Weir's group protocol messages read back what was written, and refuse another version. */
class AssignorMessagesTest {

    private static final TaskId T0 = new TaskId(0, 0);
    private static final TaskId T1 = new TaskId(1, 2);

    @Test
    void aSubscriptionCarriesTheTasksTheCopiesWithTheirLagsTheEndpointTheProcessAndTheTransactionalId() {
        AssignorMessages.Subscription written = new AssignorMessages.Subscription(
                Set.of(T0), Map.of(T1, 42L), new HostInfo("host-a", 8080), "process-1", "app-process-1-0");
        assertEquals(written, AssignorMessages.subscription(AssignorMessages.subscription(written)));
        AssignorMessages.Subscription atLeastOnce =
                new AssignorMessages.Subscription(Set.of(), Map.of(), null, "process-1", null);
        assertEquals(atLeastOnce, AssignorMessages.subscription(AssignorMessages.subscription(atLeastOnce)));
    }

    @Test
    void anAssignmentCarriesTasksStandbysWarmupsHostsTheRequestToRejoinAndTheRoster() {
        Map<HostInfo, HostTasks> hosts = Map.of(
                new HostInfo("host-a", 1), new HostTasks(Set.of(T0), Set.of(T1)),
                new HostInfo("host-b", 2), new HostTasks(Set.of(T1), Set.of(T0)));
        AssignorMessages.Assignment written = new AssignorMessages.Assignment(
                Set.of(T0), Set.of(T1), Set.of(T1), null, hosts, true, Set.of("app-p1-0", "app-p2-0"));
        AssignorMessages.Assignment read = AssignorMessages.assignment(AssignorMessages.assignment(written));
        assertEquals(written, read);
        assertTrue(read.rejoin());
        assertEquals(Set.of(T1), read.warmups());
        assertEquals(Set.of("app-p1-0", "app-p2-0"), read.roster());
        AssignorMessages.Assignment failed = AssignorMessages.assignment(
                AssignorMessages.assignment(new AssignorMessages.Assignment(Set.of(), "no topic", Map.of())));
        assertEquals("no topic", failed.error());
        assertEquals(false, failed.rejoin());
    }

    @Test
    void anotherVersionIsRefusedNamingBoth() {
        ByteBuffer old = ByteBuffer.allocate(2).putShort((short) 2).flip();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AssignorMessages.subscription(old));
        assertTrue(e.getMessage().contains("version 2 is not 5"), e.getMessage());
    }
}
