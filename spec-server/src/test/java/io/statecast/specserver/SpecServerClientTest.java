package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecServerClientTest {

    @TempDir
    Path dir;

    private SpecServer server;
    private SpecServerClient client;

    @BeforeEach
    void start() throws SpecServerException {
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck());
        client = new SpecServerClient(server.baseUri(), Optional.of(Http.TOKEN), SpecServerClient.Options.DEFAULTS);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldPublishListDownloadReplaceAndDelete() throws Exception {
        byte[] v1 = TestSpecs.spec(31, "thirty-one", "v1");
        SpecServerClient.Stored created = client.put(31, v1, Optional.empty());
        assertTrue(created.created());
        assertEquals(31, created.info().serviceId());
        assertEquals(created.etag(), created.info().etag());

        List<ServiceInfo> list = client.list();
        assertEquals(1, list.size());
        assertEquals("thirty-one", list.get(0).name());
        assertEquals(v1.length, list.get(0).size());
        assertEquals(1, client.health());

        SpecServerClient.Fetch.Found found = assertInstanceOf(SpecServerClient.Fetch.Found.class, client.get(31, Optional.empty()));
        assertArrayEquals(v1, found.document());
        assertEquals(created.etag(), found.etag());
        assertEquals(new SpecServerClient.Fetch.NotModified(created.etag()), client.get(31, Optional.of(created.etag())));

        byte[] v2 = TestSpecs.spec(31, "thirty-one", "v2");
        SpecServerClient.Stored replaced = client.put(31, v2, Optional.of(created.etag()));
        assertFalse(replaced.created());
        assertArrayEquals(v2, ((SpecServerClient.Fetch.Found) client.get(31, Optional.of(created.etag()))).document());

        SpecServerClientException stale = assertThrows(SpecServerClientException.class,
                () -> client.put(31, v1, Optional.of(created.etag())));
        assertEquals(412, stale.status());

        assertTrue(client.delete(31, Optional.of(replaced.etag())));
        assertFalse(client.delete(31, Optional.empty()));
        assertInstanceOf(SpecServerClient.Fetch.NotFound.class, client.get(31, Optional.empty()));
    }

    @Test
    void shouldCarryTheServersProblemsAndStatus() {
        SpecServerClientException invalid = assertThrows(SpecServerClientException.class,
                () -> client.put(1, "<scxml>\n<oops>\n</scxml>".getBytes(StandardCharsets.UTF_8), Optional.empty()));
        assertEquals(400, invalid.status());
        assertEquals(1, invalid.problems().size());
        assertEquals(3, invalid.problems().get(0).line());

        SpecServerClient anonymous = SpecServerClient.create(server.baseUri());
        SpecServerClientException unauthorized = assertThrows(SpecServerClientException.class,
                () -> anonymous.put(1, TestSpecs.spec(1, "one"), Optional.empty()));
        assertEquals(401, unauthorized.status());
        assertTrue(unauthorized.getMessage().contains("Authorization"), unauthorized.getMessage());
    }

    @Test
    void shouldRefuseAResponseLargerThanItsBound() throws Exception {
        client.put(2, TestSpecs.specOfSize(2, "two", 8000), Optional.empty());
        SpecServerClient small = new SpecServerClient(server.baseUri(), Optional.empty(),
                new SpecServerClient.Options(Duration.ofSeconds(5), Duration.ofSeconds(5), 4096));
        SpecServerClientException e = assertThrows(SpecServerClientException.class, () -> small.get(2, Optional.empty()));
        assertEquals(0, e.status());
        assertTrue(e.getMessage().contains("larger than the limit of 4096 bytes"), e.getMessage());
    }

    /** A one-connection fake server on loopback that answers every request with {@code behaviour}. */
    private static final class FakeServer implements AutoCloseable {
        private final ServerSocket socket;
        private final Thread thread;

        FakeServer(Consumer<OutputStream> behaviour) throws IOException {
            socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        InputStream in = s.getInputStream();
                        int matched = 0;
                        while (matched < 4) {
                            int c = in.read();
                            if (c < 0) {
                                break;
                            }
                            matched = (c == "\r\n\r\n".charAt(matched)) ? matched + 1 : (c == '\r' ? 1 : 0);
                        }
                        behaviour.accept(s.getOutputStream());
                    } catch (IOException | RuntimeException e) {
                        // the client went away or the test closed the socket
                    }
                }
            }, "fake-spec-server");
            thread.setDaemon(true);
            thread.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/");
        }

        @Override
        public void close() throws IOException {
            socket.close();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static SpecServerClient fastClient(URI uri) {
        return new SpecServerClient(uri, Optional.empty(),
                new SpecServerClient.Options(Duration.ofSeconds(2), Duration.ofMillis(500), 64 * 1024));
    }

    @Test
    void shouldGiveUpOnAServerThatNeverAnswers() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (FakeServer silent = new FakeServer(out -> {
            try {
                done.await(); // holds the connection open, unanswered, until the client has given up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            long start = System.nanoTime();
            SpecServerClientException e = assertThrows(SpecServerClientException.class, () -> fastClient(silent.uri()).list());
            assertEquals(0, e.status());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(20)) < 0, "bounded by the timeout");
            done.countDown();
        }
    }

    @Test
    void shouldGiveUpOnAnEndlessBody() throws Exception {
        try (FakeServer endless = new FakeServer(out -> {
            try {
                out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"x\"\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] chunk = ("1000\r\n" + "x".repeat(0x1000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < 100_000; i++) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the client stopped reading: expected
            }
        })) {
            SpecServerClientException e = assertThrows(SpecServerClientException.class, () -> fastClient(endless.uri()).get(1, Optional.empty()));
            assertEquals(0, e.status());
            assertTrue(e.getMessage().contains("larger than the limit") || e.getMessage().contains("no complete answer"),
                    e.getMessage());
        }
    }

    @Test
    void shouldRejectADocumentThatDoesNotMatchItsEtag() throws Exception {
        try (FakeServer lying = new FakeServer(out -> {
            try {
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"" + SpecStore.sha256(new byte[0]) + "\"\r\n\r\nhello")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // ignore
            }
        })) {
            SpecServerClientException e = assertThrows(SpecServerClientException.class, () -> fastClient(lying.uri()).get(1, Optional.empty()));
            assertTrue(e.getMessage().contains("does not match its ETag"), e.getMessage());
        }
    }

    @Test
    void shouldReportTheStatusAndTheServersErrorOfAFailedDownload() throws Exception {
        byte[] body = "{\"error\": \"the repository is read-only\"}".getBytes(StandardCharsets.US_ASCII);
        try (FakeServer failing = new FakeServer(out -> {
            try {
                out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            } catch (IOException e) {
                // ignore
            }
        })) {
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> fastClient(failing.uri()).get(1, Optional.empty()));
            assertEquals(503, e.status());
            assertTrue(e.getMessage().startsWith("GET ") && e.getMessage().endsWith("/services/1: HTTP 503: "
                    + "the repository is read-only"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseADocumentWithoutADigest() throws Exception {
        try (FakeServer unsigned = new FakeServer(out -> {
            try {
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // ignore
            }
        })) {
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> fastClient(unsigned.uri()).get(1, Optional.empty()));
            assertEquals(0, e.status());
            assertTrue(e.getMessage().contains("no verifiable digest"), e.getMessage());
        }
    }
}
