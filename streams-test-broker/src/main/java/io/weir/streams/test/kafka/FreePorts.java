package io.weir.streams.test.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Picks loopback ports that are free at the moment of asking. */
public final class FreePorts {

    private FreePorts() {}

    /**
     * A port on 127.0.0.1 that nothing listens on right now.
     *
     * @return a free port; another process may take it before it is used
     */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free loopback port", e);
        }
    }

    /**
     * Whether something is listening on 127.0.0.1:{@code port}.
     *
     * @param port the port to try
     * @return true if the port cannot be bound on 127.0.0.1
     */
    public static boolean inUse(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
