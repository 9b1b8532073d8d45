package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and broken HTTP over raw loopback sockets: every bound answers, closes, and the server lives on. */
class SpecServerLimitsTest {

    private static final Duration CLOSE_DEADLINE = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private SpecServer server;

    private SpecServer start(SpecServerLimits limits) throws SpecServerException {
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN).withLimits(limits), new BasicSpecCheck());
        return server;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RawConnection connect() throws IOException {
        return new RawConnection(server.address());
    }

    private void assertServerAlive() throws IOException {
        try (RawConnection c = connect()) {
            c.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(200, r.status(), r.body());
            assertTrue(r.body().contains("\"ok\""), r.body());
        }
    }

    @Test
    void shouldAnswer400AndCloseOnAMalformedRequestLine() throws Exception {
        start(SpecServerLimits.DEFAULTS);
        for (String garbage : new String[] {"GARBAGE\r\n\r\n", "GET /health HTTP/9.x\r\n\r\n", "\u0001\u0002\u0003 / HTTP/1.1\r\n\r\n"}) {
            try (RawConnection c = connect()) {
                c.send(garbage);
                RawConnection.Response r = c.readResponse();
                assertEquals(400, r.status(), garbage + " -> " + r);
                assertEquals("close", r.headers().get("connection"));
                assertTrue(c.closedWithin(CLOSE_DEADLINE), "closed after " + garbage);
            }
        }
        assertTrue(server.metrics().snapshot().get("malformedRequests") >= 3);
        assertServerAlive();
    }

    @Test
    void shouldAnswer400AndCloseOnABadChunkEncoding() throws Exception {
        start(SpecServerLimits.DEFAULTS);
        try (RawConnection c = connect()) {
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                    + "\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n0\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(400, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertServerAlive();
    }

    @Test
    void shouldAnswer431AndCloseOnHugeHeaders() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxHeaderBytes(4096));
        try (RawConnection c = connect()) {
            c.trySend(("GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + "a".repeat(8000) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            RawConnection.Response r = c.readResponse();
            assertEquals(431, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        try (RawConnection c = connect()) {
            StringBuilder many = new StringBuilder("GET /health HTTP/1.1\r\nHost: t\r\n");
            for (int i = 0; i < 500; i++) {
                many.append("X-H").append(i).append(": v\r\n");
            }
            c.trySend(many.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            assertEquals(431, c.readResponse().status());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertServerAlive();
    }

    @Test
    void shouldAnswer414ForARequestTargetOverTheLimit() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxUriBytes(256));
        try (RawConnection c = connect()) {
            c.send("GET /services/1?" + "q".repeat(250) + " HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(414, r.status(), "caught by the gate: " + r);
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        try (RawConnection c = connect()) {
            c.trySend(("GET /" + "q".repeat(10_000) + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            RawConnection.Response r = c.readResponse();
            assertEquals(414, r.status(), "caught by the decoder: " + r);
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertServerAlive();
    }

    @Test
    void shouldAnswer413ForContentLengthOverTheLimitWithoutReadingTheBody() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxSpecBytes(1024));
        try (RawConnection c = connect()) {
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                    + "\r\nContent-Length: 1000000000\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(413, r.status(), "answered from the head alone: " + r);
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertServerAlive();
    }

    @Test
    void shouldAnswer413ForAChunkedBodyOverTheLimitAndClose() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxSpecBytes(1024));
        try (RawConnection c = connect()) {
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "400\r\n" + "x".repeat(0x400) + "\r\n";
            c.trySend(chunk.getBytes(StandardCharsets.US_ASCII));
            // The second chunk crosses the limit; the server answers without waiting for the end.
            c.trySend(chunk.getBytes(StandardCharsets.US_ASCII));
            RawConnection.Response r = c.readResponse();
            assertEquals(413, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertEquals(1, server.metrics().snapshot().get("tooLarge"));
        assertEquals(0, server.services().size());
        assertServerAlive();
    }

    @Test
    void shouldAnswer401BeforeReadingTheBodyOfAnUnauthorizedWrite() throws Exception {
        start(SpecServerLimits.DEFAULTS);
        try (RawConnection c = connect()) {
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nContent-Length: 200000\r\n\r\n");
            RawConnection.Response r = c.readResponse();
            assertEquals(401, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
    }

    @Test
    void shouldRefuseConnectionsOverTheLimitAndAcceptAgainWhenOneCloses() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxConnections(2));
        List<RawConnection> held = new ArrayList<>();
        try {
            held.add(connect());
            held.add(connect());
            // Both held connections are served (and so counted) before the third arrives.
            for (RawConnection c : held) {
                c.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(200, c.readResponse().status());
            }
            try (RawConnection extra = connect()) {
                RawConnection.Response r = extra.readResponse();
                assertEquals(503, r.status(), r.toString());
                assertEquals("1", r.headers().get("retry-after"));
                assertTrue(extra.closedWithin(CLOSE_DEADLINE));
            }
            assertTrue(server.metrics().snapshot().get("connectionsRefused") >= 1);
            held.remove(0).close();
            Await.until(() -> {
                try (RawConnection again = connect()) {
                    again.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
                    return again.readResponse().status() == 200;
                } catch (IOException e) {
                    return false;
                }
            }, Duration.ofSeconds(10), () -> "a freed connection slot");
        } finally {
            for (RawConnection c : held) {
                c.close();
            }
        }
    }

    @Test
    void shouldAnswer500WithoutDetailsWhenTheCheckThrowsAndKeepServing(@TempDir Path other) throws Exception {
        SpecCheck broken = document -> {
            throw new IllegalStateException("secret internal detail /srv/x");
        };
        server = SpecServer.start(SpecServerConfig.secured(other, Http.TOKEN), broken);
        Http http = new Http(server.baseUri());
        java.net.http.HttpResponse<String> r = http.send(http.authorized(http.put("/services/1", TestSpecs.spec(1, "one"))));
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("\"status\":500") && !r.body().contains("secret"), r.body());
        assertEquals(1, server.metrics().snapshot().get("internalErrors"));
        assertServerAlive();
    }

    @Test
    void shouldAnswer507WhenCreatingBeyondMaxServicesButStillReplace() throws Exception {
        start(SpecServerLimits.DEFAULTS.withMaxServices(1));
        Http http = new Http(server.baseUri());
        String etag = http.send(http.authorized(http.put("/services/1", TestSpecs.spec(1, "one")))).headers().firstValue("ETag").orElseThrow();
        assertEquals(507, http.send(http.authorized(http.put("/services/2", TestSpecs.spec(2, "two")))).statusCode());
        assertEquals(200, http.send(http.authorized(http.put("/services/1", TestSpecs.spec(1, "one", "v2"))).header("If-Match", etag)).statusCode());
        assertEquals(204, http.send(http.authorized(http.request("/services/1").DELETE())).statusCode());
        assertEquals(201, http.send(http.authorized(http.put("/services/2", TestSpecs.spec(2, "two")))).statusCode());
    }

    @Test
    void shouldAnswer408WhenABodyArrivesTooSlowly() throws Exception {
        start(SpecServerLimits.DEFAULTS.withRequestTimeout(Duration.ofMillis(300)));
        try (RawConnection c = connect()) {
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                    + "\r\nContent-Length: 100\r\n\r\n0123456789");
            RawConnection.Response r = c.readResponse();
            assertEquals(408, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        }
        assertTrue(server.metrics().snapshot().get("timeouts") >= 1);
    }

    @Test
    void shouldCloseIdleAndTricklingConnections() throws Exception {
        start(SpecServerLimits.DEFAULTS.withRequestTimeout(Duration.ofMillis(300)));
        try (RawConnection idle = connect()) {
            assertTrue(idle.closedWithin(CLOSE_DEADLINE), "a connection that sends nothing is closed");
        }
        try (RawConnection trickle = connect()) {
            // One byte every 50 ms never completes the head before the 300 ms budget runs out,
            // although each byte would reset a plain read-idle timer.
            byte[] head = "GET /health HTTP/1.1\r\nHost: trickle\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            boolean closed = false;
            for (int i = 0; i < head.length && !closed; i++) {
                closed = !trickle.trySend(new byte[] {head[i]}) || trickle.closedWithin(Duration.ofMillis(50));
            }
            assertTrue(closed || trickle.closedWithin(CLOSE_DEADLINE), "a trickled request head is cut off");
        }
        try (RawConnection keepAlive = connect()) {
            keepAlive.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
            assertEquals(200, keepAlive.readResponse().status());
            assertTrue(keepAlive.closedWithin(CLOSE_DEADLINE), "an idle keep-alive connection is closed after its response");
        }
    }

    @Test
    void shouldServeSequentialRequestsOnOneConnectionAndPipelinedOnesInOrderOrClose() throws Exception {
        start(SpecServerLimits.DEFAULTS);
        try (RawConnection c = connect()) {
            for (int i = 0; i < 3; i++) {
                c.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(200, c.readResponse().status());
            }
            c.send("GET /services/1 HTTP/1.1\r\nHost: t\r\n\r\nGET /health HTTP/1.1\r\nHost: t\r\n\r\n");
            RawConnection.Response first = c.readResponse();
            assertEquals(404, first.status(), "the first answer belongs to the first request");
            try {
                RawConnection.Response second = c.readResponse();
                assertEquals(200, second.status(), "the second answer belongs to the second request");
            } catch (IOException closed) {
                // also allowed: the server declined the pipelined request and closed
            }
        }
        assertServerAlive();
    }

    @Test
    void shouldAnswer503WhenEveryWorkerIsBusyAndTheQueueIsFull(@TempDir Path other) throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger entered = new java.util.concurrent.atomic.AtomicInteger();
        BasicSpecCheck basic = new BasicSpecCheck();
        SpecCheck slow = document -> {
            entered.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return basic.check(document);
        };
        server = SpecServer.start(SpecServerConfig.secured(other, Http.TOKEN)
                .withLimits(SpecServerLimits.DEFAULTS.withWorkers(1, 1)), slow);
        List<RawConnection> conns = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                RawConnection c = connect();
                conns.add(c);
                byte[] doc = TestSpecs.spec(100 + i, "s" + i);
                c.send("PUT /services/" + (100 + i) + " HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                        + "\r\nContent-Length: " + doc.length + "\r\n\r\n");
                c.send(doc);
                if (i == 0) {
                    Await.until(() -> entered.get() == 1, Duration.ofSeconds(5),
                            () -> "the first upload occupies the only worker");
                }
            }
            // One running, one queued: of the two that arrived while the worker was busy (their
            // order across event loops is not fixed), exactly one cannot be taken.
            Await.until(() -> server.metrics().snapshot().get("overloaded") == 1, Duration.ofSeconds(5),
                    () -> "a refused upload");
            release.countDown();
            assertEquals(201, conns.get(0).readResponse().status());
            RawConnection.Response second = conns.get(1).readResponse();
            RawConnection.Response third = conns.get(2).readResponse();
            RawConnection.Response refused = second.status() == 503 ? second : third;
            RawConnection.Response accepted = second.status() == 503 ? third : second;
            assertEquals(503, refused.status(), refused.toString());
            assertEquals("1", refused.headers().get("retry-after"));
            assertEquals(201, accepted.status(), accepted.toString());
            assertEquals(1, server.metrics().snapshot().get("overloaded"));
        } finally {
            release.countDown();
            for (RawConnection c : conns) {
                c.close();
            }
        }
    }

    @Test
    void shouldAnswer503WhenValidationTakesLongerThanTheProcessingTimeoutAndStoreNothing(@TempDir Path other) throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(1);
        BasicSpecCheck basic = new BasicSpecCheck();
        SpecCheck stuck = document -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.countDown();
            return basic.check(document);
        };
        server = SpecServer.start(SpecServerConfig.secured(other, Http.TOKEN)
                .withLimits(SpecServerLimits.DEFAULTS.withProcessingTimeout(Duration.ofMillis(300)).withWorkers(1, 4)), stuck);
        try (RawConnection c = connect()) {
            byte[] doc = TestSpecs.spec(1, "one");
            c.send("PUT /services/1 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + Http.TOKEN
                    + "\r\nContent-Length: " + doc.length + "\r\n\r\n");
            c.send(doc);
            RawConnection.Response r = c.readResponse();
            assertEquals(503, r.status(), r.toString());
            assertTrue(c.closedWithin(CLOSE_DEADLINE));
        } finally {
            release.countDown();
        }
        assertTrue(finished.await(10, java.util.concurrent.TimeUnit.SECONDS));
        // The late validation succeeds, but the client was told 503: the upload must not land.
        // The only worker runs tasks in order, so once a later upload is answered the late one is done.
        Http http = new Http(server.baseUri());
        assertEquals(201, http.send(http.authorized(http.put("/services/2", TestSpecs.spec(2, "two")))).statusCode());
        assertEquals(404, http.get("/services/1").statusCode());
        assertEquals(1, server.services().size());
        assertServerAlive();
    }
}
