package io.weir.streams;

import java.util.Objects;

/**
 * Where an instance answers queries: the {@code application.server} it was given, {@code host:port}.
 * Weir does not listen on it; it publishes it to the other instances of the application, so that a
 * service can send a query about a key to the instance that holds the key ({@link
 * WeirStreams#metadataForKey}).
 *
 * @param host the host name or address, not blank
 * @param port the port, from 0 to 65535
 */
public record HostInfo(String host, int port) {

    /**
     * Checks the host and port.
     *
     * @param host the host name or address, not blank
     * @param port the port, from 0 to 65535
     * @throws IllegalArgumentException if the host is blank or the port out of range
     */
    public HostInfo {
        Objects.requireNonNull(host, "host");
        if (host.isBlank() || port < 0 || port > 65_535) {
            throw new IllegalArgumentException("Not a host and port: '" + host + ":" + port + "'");
        }
    }

    /**
     * Parses {@code host:port} (an IPv6 host in brackets: {@code [::1]:8080}).
     *
     * @param endpoint {@code host:port}
     * @return the host and port
     * @throws IllegalArgumentException if {@code endpoint} is not {@code host:port} with a valid port
     */
    public static HostInfo parse(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1) {
            throw new IllegalArgumentException("Expected host:port, was '" + endpoint + "'");
        }
        try {
            return new HostInfo(endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Expected host:port with a numeric port, was '" + endpoint + "'", e);
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
