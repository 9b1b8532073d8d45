package io.statecast.messagestore.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link HttpSpecSource} against a real HTTP server on loopback. */
class HttpSpecSourceTest {

    private static final byte[] DOC = "<scxml xmlns='http://www.w3.org/2005/07/scxml'/>".getBytes(StandardCharsets.UTF_8);

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private ExecutorService executor;
    private URI base;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newCachedThreadPool();
        server.setExecutor(executor);
        server.createContext("/ok", ex -> answer(ex, 200, DOC, "\"" + sha256(DOC) + "\""));
        server.createContext("/no-etag", ex -> answer(ex, 200, DOC, null));
        server.createContext("/weak-etag", ex -> answer(ex, 200, DOC, "W/\"v1\""));
        server.createContext("/bad-etag", ex -> answer(ex, 200, DOC, "\"" + sha256(new byte[] {1}) + "\""));
        server.createContext("/missing", ex -> answer(ex, 404, "no such service".getBytes(StandardCharsets.UTF_8), null));
        server.createContext("/big", ex -> answer(ex, 200, new byte[4096], null));
        server.createContext("/big-chunked", streaming(1 << 20));
        server.createContext("/hang", ex -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.start();
        base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private static void answer(HttpExchange ex, int status, byte[] body, String etag) throws IOException {
        ex.getRequestBody().readAllBytes();
        if (etag != null) {
            ex.getResponseHeaders().add("ETag", etag);
        }
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    /** A chunked body (no Content-Length) of {@code total} bytes. */
    private static HttpHandler streaming(int total) {
        return ex -> {
            ex.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[1024];
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < total / chunk.length; i++) {
                    out.write(chunk);
                    out.flush();
                }
            } catch (IOException expectedWhenTheClientHangsUp) {
                // the client cancelled the download; that is the behaviour under test
            }
        };
    }

    private static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static HttpSpecSource source() {
        return new HttpSpecSource("http", Duration.ofSeconds(5), Duration.ofSeconds(20));
    }

    @Test
    void shouldReadABodyThatMatchesItsEtagOrHasNone() throws Exception {
        HttpSpecSource s = source();
        assertArrayEquals(DOC, s.read(base.resolve("/ok"), 1024));
        assertArrayEquals(DOC, s.read(base.resolve("/ok"), DOC.length), "exactly the limit is fine");
        assertArrayEquals(DOC, s.read(base.resolve("/no-etag"), 1024));
        assertArrayEquals(DOC, s.read(base.resolve("/weak-etag"), 1024), "an ETag that is no hash is not checked");
    }

    @Test
    void shouldNameTheUriAndStatusOfANon2xxAnswer() {
        URI uri = base.resolve("/missing");
        IOException e = assertThrows(IOException.class, () -> source().read(uri, 1024));
        assertEquals(uri + " answered HTTP status 404", e.getMessage());
    }

    @Test
    void shouldRefuseABodyLargerThanTheLimit() {
        URI uri = base.resolve("/big");
        IOException e = assertThrows(IOException.class, () -> source().read(uri, 4095));
        assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("larger than the limit of 4095"),
                e.getMessage());
    }

    @Test
    void shouldStopReadingAChunkedBodyPastTheLimit() {
        URI uri = base.resolve("/big-chunked");
        IOException e = assertThrows(IOException.class, () -> source().read(uri, 2000));
        assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("larger than the limit of 2000"),
                e.getMessage());
    }

    @Test
    void shouldRefuseABodyThatDoesNotMatchItsEtag() {
        URI uri = base.resolve("/bad-etag");
        IOException e = assertThrows(IOException.class, () -> source().read(uri, 1024));
        assertTrue(e.getMessage().startsWith(uri + ": body (" + DOC.length + " bytes) does not match its ETag"),
                e.getMessage());
        assertTrue(e.getMessage().contains(sha256(DOC)), e.getMessage());
    }

    @Test
    void shouldGiveUpOnAServerThatNeverAnswers() {
        URI uri = base.resolve("/hang");
        HttpSpecSource s = new HttpSpecSource("http", Duration.ofSeconds(5), Duration.ofMillis(300));
        IOException e = assertThrows(IOException.class, () -> s.read(uri, 1024));
        assertInstanceOf(HttpTimeoutException.class, e);
        assertTrue(e.getMessage().contains(uri.toString()) && e.getMessage().contains("300 ms"), e.getMessage());
    }

    @Test
    void shouldRefuseUrisItCannotRequestAndBadSettings() {
        assertThrows(IOException.class, () -> source().read(URI.create("https://127.0.0.1/x"), 10), "wrong scheme");
        assertThrows(IOException.class, () -> source().read(URI.create("http:/x"), 10), "no host");
        assertThrows(IllegalArgumentException.class, () -> new HttpSpecSource("ftp"));
        assertThrows(IllegalArgumentException.class, () -> new HttpSpecSource("http", Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new HttpSpecSource("http", Duration.ofSeconds(1), Duration.ofMillis(-1)));
        assertEquals("https", new HttpSpecSource("HTTPS").scheme());
    }

    @Test
    void shouldBeRegisteredForHttpAndHttpsByDefault() throws Exception {
        assertArrayEquals(DOC, SpecResolver.defaults().read(base.resolve("/ok"), 1024));
    }
}
