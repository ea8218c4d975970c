package io.weir.streams.internals.state;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.serde.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One instance, of one user, per application state directory ({@link StateDirectory}). */
class StateDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void aSecondInstanceInThisJvmIsRefusedNamingTheDirectoryUntilTheFirstCloses() {
        try (StateDirectory first = StateDirectory.take(dir, "app")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> StateDirectory.take(dir, "app"));
            assertTrue(e.getMessage().contains(dir.resolve("app").toString()), e.getMessage());
            assertTrue(e.getMessage().contains("its own state.dir"), e.getMessage());
            StateDirectory.take(dir, "other").close();
            assertEquals(dir.resolve("app"), first.directory());
        }
        StateDirectory.take(dir, "app").close();
    }

    @Test
    void aSecondProcessIsRefusedNamingTheProcessThatHoldsIt() throws IOException, InterruptedException {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        StateDirectoryHolder.class.getName(),
                        dir.toString(),
                        "app")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith("held"), "the child took it: " + line);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> StateDirectory.take(dir, "app"));
            assertTrue(e.getMessage().contains("pid " + child.pid()), e.getMessage());
        } finally {
            child.destroyForcibly().waitFor();
        }
        StateDirectory.take(dir, "app").close();
    }

    @Test
    void theDirectoryIsOwnerOnlyEvenWhereItExistedOpenToOthers() throws IOException {
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        assertTrue(posix, "the test machines have POSIX file systems");
        Path open = dir.resolve("open");
        Files.createDirectories(open.resolve("app"));
        Files.setPosixFilePermissions(open.resolve("app"), PosixFilePermissions.fromString("rwxr-xr-x"));
        try (StateDirectory held = StateDirectory.take(open, "app");
                StateDirectory fresh = StateDirectory.take(dir.resolve("fresh"), "app")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(held.directory())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.directory())));
            assertEquals(
                    "rwx------",
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("fresh"))),
                    "a state.dir Weir makes is the user's own too");
        }
    }

    @Test
    void aDirectoryAnotherUserOwnsIsRefused() throws IOException {
        UserPrincipal other =
                FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.createDirectories(dir.resolve("app"));
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> StateDirectory.take(dir, "app", other));
        assertTrue(e.getMessage().contains("belongs to") && e.getMessage().contains("nobody"), e.getMessage());
        StateDirectory.take(dir, "app").close();
    }

    @Test
    void twoWeirStreamsOnOneStateDirectoryCannotBothBeMade() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).to("out");
        Map<String, Object> config = Map.of(
                StreamsConfig.APPLICATION_ID, "app",
                StreamsConfig.BOOTSTRAP_SERVERS, "localhost:1",
                StreamsConfig.STATE_DIR, dir.toString());
        try (WeirStreams first = new WeirStreams(builder.build(), config)) {
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> new WeirStreams(builder.build(), config));
            assertTrue(e.getMessage().contains(dir.resolve("app").toString()), e.getMessage());
            assertEquals(List.of(), first.localThreads());
        }
        new WeirStreams(builder.build(), config).close();
    }
}
