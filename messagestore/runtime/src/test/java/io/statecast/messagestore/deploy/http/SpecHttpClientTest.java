package io.statecast.messagestore.deploy.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bounded body reader and the exchange around it, against a real HTTP server on loopback
 * that sends too much, or sends a little and then nothing, or never stops.
 */
class SpecHttpClientTest {

    private static final int LIMIT = 8192;
    private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(1500);

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private ExecutorService executor;
    private URI base;
    private SpecHttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newCachedThreadPool();
        server.setExecutor(executor);
        server.createContext("/small", ex -> answer(ex, 200, new byte[LIMIT]));
        server.createContext("/declared-too-large", ex -> answer(ex, 200, new byte[LIMIT + 1]));
        server.createContext("/head", ex -> {
            // a HEAD answer declares the length of a body it does not send
            ex.getResponseHeaders().add("Content-Length", Integer.toString(10 * LIMIT));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/chunked-endless", ex -> {
            ex.sendResponseHeaders(200, 0); // chunked: no length announced
            byte[] chunk = new byte[1024];
            try (OutputStream out = ex.getResponseBody()) {
                while (release.getCount() > 0) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the client hung up: what the test wants
            }
        });
        server.createContext("/trickle-then-stall", ex -> {
            ex.sendResponseHeaders(200, 4096);
            OutputStream out = ex.getResponseBody();
            out.write("<scxml".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.start();
        base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        client = new SpecHttpClient(Duration.ofSeconds(5), REQUEST_TIMEOUT, Optional.empty());
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private static void answer(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getRequestBody().readAllBytes();
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private SpecHttpClient.Answer get(String path) throws IOException {
        return client.exchange(client.request(base.resolve(path)).GET(), LIMIT);
    }

    @Test
    void shouldReadABodyOfExactlyTheLimit() throws Exception {
        SpecHttpClient.Answer a = get("/small");
        assertEquals(200, a.status());
        assertArrayEquals(new byte[LIMIT], a.body());
    }

    @Test
    void shouldRefuseADeclaredLengthOverTheLimitUpFront() {
        IOException e = assertThrows(IOException.class, () -> get("/declared-too-large"));
        assertTrue(e.getMessage().startsWith(base.resolve("/declared-too-large") + " is larger than the limit of "
                + LIMIT + " bytes (Content-Length " + (LIMIT + 1) + ")"), e.getMessage());
    }

    @Test
    void shouldStopAnEndlessChunkedBodyAtTheLimit() throws Exception {
        IOException e = assertThrows(IOException.class, () -> get("/chunked-endless"));
        assertTrue(e.getMessage().startsWith(base.resolve("/chunked-endless") + " is larger than the limit of "
                + LIMIT + " bytes"), e.getMessage());
    }

    @Test
    void shouldGiveUpOnABodyThatStallsWithinTheRequestTimeout() {
        long start = System.nanoTime();
        HttpTimeoutException e = assertThrows(HttpTimeoutException.class, () -> get("/trickle-then-stall"));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals("GET " + base.resolve("/trickle-then-stall") + ": no complete answer within "
                + REQUEST_TIMEOUT.toMillis() + " ms", e.getMessage());
        // bounded by the request timeout, not by the server: far below the server's 60 s stall
        assertTrue(tookMs < 30_000, "gave up after " + tookMs + " ms");
    }

    @Test
    void shouldNotRefuseAHeadAnswerForTheLengthItDeclares() throws Exception {
        SpecHttpClient.Answer a = client.exchange(client.request(base.resolve("/head"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()), LIMIT);
        assertEquals(200, a.status());
        assertEquals(0, a.body().length);
    }
}
