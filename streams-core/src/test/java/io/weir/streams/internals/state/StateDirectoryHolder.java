package io.weir.streams.internals.state;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Takes a state directory in a child JVM for {@link StateDirectoryTest}: prints {@code held} once it holds
 * it, and holds it until its standard input closes or it is killed.
 */
final class StateDirectoryHolder {

    private StateDirectoryHolder() {}

    public static void main(String[] args) throws IOException {
        try (StateDirectory held = StateDirectory.take(Path.of(args[0]), args[1])) {
            System.out.println("held " + held.directory());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Holds the directory until the parent closes our input.
            }
        }
    }
}
