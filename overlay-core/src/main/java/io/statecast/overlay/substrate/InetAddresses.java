package io.statecast.overlay.substrate;

import io.netty.util.NetUtil;
import io.statecast.overlay.address.SubstrateAddress;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Conversions between substrate addresses and socket addresses for the UDP and TCP interfaces,
 * with a bounded cache so that the send path does not parse or resolve on every frame.
 *
 * <p>IP literals never block. A host <em>name</em> is resolved with the system resolver the first
 * time it is used, which may block the sending thread; use literals where that matters.
 */
final class InetAddresses {

    /** Entries kept before the cache is cleared: peers of one node are far fewer. */
    private static final int MAX_CACHED = 4096;

    private final ConcurrentHashMap<SubstrateAddress, InetSocketAddress> cache = new ConcurrentHashMap<>();

    /** The socket address of {@code address}, or {@code null} if its host cannot be resolved. */
    InetSocketAddress resolve(SubstrateAddress address) {
        InetSocketAddress a = cache.get(address);
        if (a != null) {
            return a;
        }
        a = resolveUncached(address.host(), address.port());
        if (a != null) {
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(address, a);
        }
        return a;
    }

    /** The socket address of {@code host:port}, or {@code null} if unresolvable. */
    static InetSocketAddress resolveUncached(String host, int port) {
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
        try {
            InetAddress ip = literal != null ? InetAddress.getByAddress(literal) : InetAddress.getByName(host);
            return new InetSocketAddress(ip, port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The substrate address of scheme {@code scheme} for a socket address (IPv6 hosts in brackets). */
    static SubstrateAddress toSubstrate(SubstrateAddress.Scheme scheme, InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        String host = ip == null ? address.getHostString() : NetUtil.toAddressString(ip);
        if (ip instanceof Inet6Address) {
            host = "[" + host + "]";
        }
        return new SubstrateAddress(scheme, host + ":" + address.getPort());
    }

    /** An empty cache. */
    InetAddresses() {
    }
}
