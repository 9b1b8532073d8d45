package io.statecast.specserver;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts open connections, in total and per client address, and refuses one over either bound
 * ({@link SpecServerLimits#maxConnections()}, {@link SpecServerLimits#maxConnectionsPerAddress()}).
 * An IPv6 client is counted by its /64 prefix: a host is routinely given a whole /64 and can pick
 * any address in it. Thread-safe: connections are accepted on several event loops.
 */
final class ConnectionLimiter {

    /** What {@link #acquire} decided. */
    enum Admission {
        /** Admitted; {@link #release} must follow when the connection closes. */
        ADMITTED,
        /** Refused: the server holds maxConnections. */
        SERVER_FULL,
        /** Refused: this client address holds maxConnectionsPerAddress. */
        ADDRESS_FULL
    }

    /** The bucket of clients without an IP address. */
    private static final InetAddress UNKNOWN;

    static {
        try {
            UNKNOWN = InetAddress.getByAddress(new byte[4]);
        } catch (UnknownHostException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int maxTotal;
    private final int maxPerAddress;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    ConnectionLimiter(int maxTotal, int maxPerAddress) {
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * @param remote the client's address (anything else counts as one unknown client)
     * @return whether the connection may stay open
     */
    Admission acquire(SocketAddress remote) {
        InetAddress key = keyOf(remote);
        boolean[] admitted = {false};
        perAddress.compute(key, (k, n) -> {
            int held = n == null ? 0 : n;
            if (held >= maxPerAddress) {
                return n;
            }
            admitted[0] = true;
            return held + 1;
        });
        if (!admitted[0]) {
            return Admission.ADDRESS_FULL;
        }
        if (total.incrementAndGet() > maxTotal) {
            total.decrementAndGet();
            releaseAddress(key);
            return Admission.SERVER_FULL;
        }
        return Admission.ADMITTED;
    }

    /** @param remote the address given to an {@link Admission#ADMITTED} {@link #acquire} */
    void release(SocketAddress remote) {
        total.decrementAndGet();
        releaseAddress(keyOf(remote));
    }

    /** @return connections open now */
    int open() {
        return total.get();
    }

    private void releaseAddress(InetAddress key) {
        perAddress.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
    }

    static InetAddress keyOf(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return UNKNOWN; // not an IP client: one bucket for all such
        }
        InetAddress a = inet.getAddress();
        if (a instanceof Inet6Address) {
            byte[] prefix = Arrays.copyOf(Arrays.copyOf(a.getAddress(), 8), 16);
            try {
                return InetAddress.getByAddress(prefix);
            } catch (UnknownHostException e) {
                throw new IllegalStateException("16 bytes are an IPv6 address", e);
            }
        }
        return a;
    }
}
