package io.weir.streams.internals.runtime;

import io.weir.streams.HostInfo;
import io.weir.streams.internals.config.GroupProtocol;
import io.weir.streams.internals.query.HostTasks;
import io.weir.streams.internals.topology.TaskId;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Weir's group protocol messages read back what was written, whatever adjacent release wrote them. */
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
        AssignorMessages.Assignment failed = AssignorMessages.assignment(AssignorMessages.assignment(
                new AssignorMessages.Assignment(Set.of(), "no topic", Map.of(), GroupProtocol.LATEST)));
        assertEquals("no topic", failed.error());
        assertEquals(false, failed.rejoin());
    }

    @Test
    void aVersion5MessageHasExactlyTheFieldsOfReleasesBeforeVersionProbing() {
        AssignorMessages.Subscription v5 = subscriptionAt(GroupProtocol.OLDEST);
        ByteBuffer bytes = AssignorMessages.subscription(v5);
        assertEquals(GroupProtocol.LAYOUT, bytes.getShort(0));
        assertEquals(v5, AssignorMessages.subscription(bytes));
        AssignorMessages.Assignment assignment = assignmentAt(GroupProtocol.OLDEST);
        assertEquals(assignment, AssignorMessages.assignment(AssignorMessages.assignment(assignment)));
    }

    @Test
    void aLaterVersionAppendsItsTrailerToTheVersion5BytesSoThatOlderReleasesReadIt() {
        byte[] v5 = bytes(AssignorMessages.subscription(subscriptionAt(GroupProtocol.OLDEST)));
        byte[] v6 = bytes(AssignorMessages.subscription(subscriptionAt(GroupProtocol.LATEST)));
        assertEquals(v5.length + 2, v6.length);
        assertArrayEquals(v5, Arrays.copyOf(v6, v5.length), "a release reading layout 5 reads the same fields");
        byte[] a5 = bytes(AssignorMessages.assignment(assignmentAt(GroupProtocol.OLDEST)));
        byte[] a6 = bytes(AssignorMessages.assignment(assignmentAt(GroupProtocol.LATEST)));
        assertArrayEquals(a5, Arrays.copyOf(a6, a5.length));
        assertEquals(GroupProtocol.LATEST, ByteBuffer.wrap(a6, a5.length, 2).getShort());
    }

    @Test
    void theFieldsOfALaterVersionAfterTheTrailerAreSkipped() {
        byte[] v6 = bytes(AssignorMessages.subscription(subscriptionAt(GroupProtocol.LATEST)));
        ByteBuffer later =
                ByteBuffer.allocate(v6.length + 12).put(v6).putLong(42L).putInt(7);
        later.putShort(v6.length - 2, (short) 7);
        AssignorMessages.Subscription read = AssignorMessages.subscription(later.flip());
        assertEquals(7, read.version());
        assertEquals(Set.of(T0), read.owned());
        assertEquals("app-process-1-0", read.transactionalId());
    }

    @Test
    void aSubscriptionInALayoutThisReleaseDoesNotKnowIsUnreadableNotAFailure() {
        ByteBuffer newer =
                ByteBuffer.allocate(6).putShort((short) 9).putInt(12345).flip();
        AssignorMessages.Subscription read = AssignorMessages.subscription(newer);
        assertFalse(read.readable());
        assertEquals(9, read.layout());
        assertEquals(Set.of(), read.owned());
    }

    @Test
    void anAssignmentInAnotherLayoutIsRefusedNamingItAndTheVersionsThisReleaseReads() {
        ByteBuffer other = ByteBuffer.allocate(2).putShort((short) 9).flip();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AssignorMessages.assignment(other));
        assertTrue(e.getMessage().contains("layout 9"), e.getMessage());
        assertTrue(e.getMessage().contains("versions 5 to 6"), e.getMessage());
    }

    private static AssignorMessages.Subscription subscriptionAt(int version) {
        return new AssignorMessages.Subscription(
                Set.of(T0),
                Map.of(T1, 42L),
                new HostInfo("host-a", 8080),
                "process-1",
                "app-process-1-0",
                version,
                GroupProtocol.LAYOUT);
    }

    private static AssignorMessages.Assignment assignmentAt(int version) {
        return new AssignorMessages.Assignment(
                Set.of(T0),
                Set.of(T1),
                Set.of(),
                null,
                Map.of(new HostInfo("host-a", 1), new HostTasks(Set.of(T0), Set.of(T1))),
                false,
                Set.of("app-p1-0"),
                version);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
