package io.statecast.overlay.address;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;

/**
 * The blueprint's <em>substrate address</em>: where an interface of an adapter can be reached.
 * Written as a URI: {@code udp://host:port}, {@code tcp://host:port} or {@code mem://name}.
 *
 * @param scheme    which kind of substrate
 * @param authority {@code host:port} for UDP and TCP, a name for the in-memory substrate
 */
public record SubstrateAddress(Scheme scheme, String authority) {

    /** Longest authority accepted, so an address from the wire cannot be large. */
    public static final int MAX_AUTHORITY_LENGTH = 255;

    /** Substrate kinds. */
    public enum Scheme {
        /** One datagram per message. */
        UDP,
        /** Length-prefixed frames over a reused connection per peer. */
        TCP,
        /** In-process network for tests and simulations. */
        MEM;

        /** The URI scheme, lower case. */
        public String uriScheme() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException if the authority is empty, too long, or not
     *                                  {@code host:port} with a port in 0..65535 for UDP/TCP
     */
    public SubstrateAddress {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(authority, "authority");
        if (authority.isEmpty() || authority.length() > MAX_AUTHORITY_LENGTH) {
            throw new IllegalArgumentException(
                    "substrate address authority must be 1.." + MAX_AUTHORITY_LENGTH + " characters: '" + authority + "'");
        }
        if (scheme != Scheme.MEM) {
            port(authority); // validates
        }
    }

    /**
     * Parses {@code udp://host:port}, {@code tcp://host:port} or {@code mem://name}.
     *
     * @throws IllegalArgumentException naming what is wrong with the text
     */
    public static SubstrateAddress parse(String text) {
        Objects.requireNonNull(text, "text");
        int sep = text.indexOf("://");
        if (sep <= 0) {
            throw new IllegalArgumentException("substrate address must look like udp://host:port, tcp://host:port or mem://name: '" + text + "'");
        }
        String scheme = text.substring(0, sep).toUpperCase(Locale.ROOT);
        Scheme s;
        try {
            s = Scheme.valueOf(scheme);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown substrate scheme '" + text.substring(0, sep) + "' in '" + text + "' (udp, tcp or mem)");
        }
        return new SubstrateAddress(s, text.substring(sep + 3));
    }

    /** Convenience for {@code udp://host:port}. */
    public static SubstrateAddress udp(String host, int port) {
        return new SubstrateAddress(Scheme.UDP, host + ":" + port);
    }

    /** Convenience for {@code tcp://host:port}. */
    public static SubstrateAddress tcp(String host, int port) {
        return new SubstrateAddress(Scheme.TCP, host + ":" + port);
    }

    /** Convenience for {@code mem://name}. */
    public static SubstrateAddress mem(String name) {
        return new SubstrateAddress(Scheme.MEM, name);
    }

    /** The host part of a UDP or TCP address. */
    public String host() {
        requireInet();
        String h = authority.substring(0, authority.lastIndexOf(':'));
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** The port of a UDP or TCP address. */
    public int port() {
        requireInet();
        return port(authority);
    }

    /** An unresolved-free socket address for UDP and TCP (resolves the host name). */
    public InetSocketAddress toInetSocketAddress() {
        return new InetSocketAddress(host(), port());
    }

    private void requireInet() {
        if (scheme == Scheme.MEM) {
            throw new IllegalStateException("mem:// addresses have no host or port: " + this);
        }
    }

    private static int port(String authority) {
        int colon = authority.lastIndexOf(':');
        if (colon <= 0 || colon == authority.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + authority + "'");
        }
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + authority + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range 0..65535 in '" + authority + "'");
        }
        return port;
    }

    @Override
    public String toString() {
        return scheme.uriScheme() + "://" + authority;
    }
}
