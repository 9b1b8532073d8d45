package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slowloris over real loopback sockets: one client address holding many half-sent requests can
 * take neither every connection nor any connection for long, and another client is served
 * meanwhile.
 */
class ConnectionLimitsTest {

    private static final String HALF_HEAD = "GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ";

    @TempDir
    Path dir;

    private SpecServer server;
    private final List<RawConnection> open = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (RawConnection c : open) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static InetAddress loopback(int last) throws IOException {
        return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    }

    /** A GET of /health from {@code from} on a new connection. */
    private void assertServedFrom(InetAddress from) throws IOException {
        try (RawConnection c = new RawConnection(server.address(), from)) {
            c.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(200, r.status(), r.body());
        }
    }

    @Test
    void shouldServeAnotherClientWhileOneAddressHoldsManyHalfSentRequests() throws Exception {
        // Default connection limits; deadlines long enough that no held connection is closed during the test.
        SpecServerLimits limits = SpecServerLimits.DEFAULTS.withRequestTimeout(Duration.ofSeconds(120))
                .withHeaderTimeout(Duration.ofSeconds(120));
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN).withLimits(limits), new BasicSpecCheck());
        InetAddress attacker = loopback(1);
        int attempts = 80;
        int refused = 0;
        for (int i = 0; i < attempts; i++) {
            RawConnection c = new RawConnection(server.address(), attacker);
            open.add(c);
            int seen = i + 1;
            Await.until(() -> server.openConnections() + server.metrics().snapshot().get("connectionsRefused") == seen,
                    Duration.ofSeconds(10),
                    () -> "the server to admit or refuse connection " + (seen - 1));
            if (server.openConnections() == seen - refused) {
                c.send(HALF_HEAD); // admitted: hold it with a request head that never ends
            } else {
                // Refused: the server reads nothing and answers at once with 503.
                RawConnection.Response r = c.readResponse();
                assertEquals(503, r.status(), "connection " + i + " from the same address: " + r);
                assertEquals("1", r.headers().get("retry-after"));
                refused++;
            }
        }
        assertEquals(limits.maxConnectionsPerAddress(), server.openConnections());
        assertEquals(attempts - limits.maxConnectionsPerAddress(), refused);
        long before = server.metrics().snapshot().get("connectionsRefusedPerAddress");
        assertEquals(refused, before);

        InetAddress legitimate = loopback(2);
        for (int i = 0; i < 40; i++) {
            assertServedFrom(legitimate);
        }
        try (RawConnection c = new RawConnection(server.address(), legitimate)) {
            c.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.Response page = c.readResponse();
            assertEquals(200, page.status());
            assertTrue(page.body().contains("0 services"), page.body());
        }
        assertEquals(before, server.metrics().snapshot().get("connectionsRefusedPerAddress"),
                "the other client was never refused");
    }

    @Test
    void shouldCloseAConnectionThatDoesNotSendItsHeadWithinTheHeaderTimeout() throws Exception {
        Duration headerTimeout = Duration.ofMillis(400);
        SpecServerLimits limits = SpecServerLimits.DEFAULTS.withHeaderTimeout(headerTimeout).withMaxConnectionsPerAddress(4);
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN).withLimits(limits), new BasicSpecCheck());
        InetAddress attacker = loopback(3);
        List<RawConnection> slow = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RawConnection c = new RawConnection(server.address(), attacker);
            open.add(c);
            slow.add(c);
        }
        // Trickle the head one byte at a time, well within requestTimeout but never completing it in time.
        byte[] head = (HALF_HEAD + "a".repeat(200)).getBytes(StandardCharsets.US_ASCII);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        boolean[] closed = new boolean[slow.size()];
        for (int b = 0; b < head.length && System.nanoTime() - deadline < 0; b++) {
            boolean all = true;
            for (int i = 0; i < slow.size(); i++) {
                if (!closed[i]) {
                    closed[i] = !slow.get(i).trySend(new byte[] {head[b]}) || slow.get(i).closedWithin(Duration.ofMillis(20));
                }
                all &= closed[i];
            }
            if (all) {
                break;
            }
        }
        for (int i = 0; i < slow.size(); i++) {
            assertTrue(closed[i] || slow.get(i).closedWithin(Duration.ofSeconds(5)), "slow connection " + i + " closed");
        }
        assertTrue(server.metrics().snapshot().get("headTimeouts") >= slow.size(), server.metrics().snapshot().toString());
        // The address's connections were freed: it can connect and be served again.
        assertServedFrom(attacker);
    }

    @Test
    void shouldCountAnIpv6ClientByItsSlash64() throws Exception {
        ConnectionLimiter limiter = new ConnectionLimiter(10, 2);
        InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("2001:db8:1:2::1"), 1000);
        InetSocketAddress b = new InetSocketAddress(InetAddress.getByName("2001:db8:1:2:ffff::9"), 1000);
        InetSocketAddress other = new InetSocketAddress(InetAddress.getByName("2001:db8:1:3::1"), 1000);
        assertEquals(ConnectionLimiter.Admission.ADMITTED, limiter.acquire(a));
        assertEquals(ConnectionLimiter.Admission.ADMITTED, limiter.acquire(b));
        assertEquals(ConnectionLimiter.Admission.ADDRESS_FULL, limiter.acquire(a), "same /64");
        assertEquals(ConnectionLimiter.Admission.ADMITTED, limiter.acquire(other), "another /64");
        limiter.release(b);
        assertEquals(ConnectionLimiter.Admission.ADMITTED, limiter.acquire(a));
        assertEquals(3, limiter.open());

        ConnectionLimiter small = new ConnectionLimiter(2, 2);
        assertEquals(ConnectionLimiter.Admission.ADMITTED, small.acquire(a));
        assertEquals(ConnectionLimiter.Admission.ADMITTED, small.acquire(other));
        assertEquals(ConnectionLimiter.Admission.SERVER_FULL, small.acquire(b));
        small.release(a);
        assertEquals(ConnectionLimiter.Admission.ADMITTED, small.acquire(b), "a refusal left no count behind");
    }
}
