package io.statecast.overlay.metrics;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The endpoint serves GET /metrics only, and refuses what is malformed or too large. */
class MetricsEndpointTest {

    private final AtomicInteger scrapes = new AtomicInteger();
    private MetricsEndpoint endpoint;

    @BeforeEach
    void start() throws IOException {
        endpoint = MetricsEndpoint.start(InetSocketAddress.createUnresolved("127.0.0.1", 0),
                () -> "# TYPE statecast_up gauge\nstatecast_up " + scrapes.incrementAndGet() + "\n");
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    /** Sends raw bytes, returns the whole response (the server closes after one). */
    private String exchange(String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(endpoint.address(), 5_000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request.getBytes(US_ASCII));
                out.flush();
            } catch (IOException e) {
                // the server may answer and close before reading an oversized request in full
            }
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), UTF_8);
        }
    }

    private static String status(String response) {
        return response.substring(0, response.indexOf("\r\n"));
    }

    @Test
    void shouldServePrometheusTextAtMetrics() throws Exception {
        String r = exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", status(r), r);
        assertTrue(r.contains("content-type: " + MetricsEndpoint.CONTENT_TYPE), r);
        String body = r.substring(r.indexOf("\r\n\r\n") + 4);
        assertEquals(1.0, PrometheusText.parse(body).named("statecast_up").get(0).value());
        String again = exchange("GET /metrics?name=x HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(again.endsWith("statecast_up 2\n"), "each request scrapes anew: " + again);
    }

    @Test
    void shouldAnswerHeadWithoutABody() throws Exception {
        String r = exchange("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", status(r), r);
        assertTrue(r.endsWith("\r\n\r\n"), r);
    }

    @Test
    void shouldRefuseOtherPathsWith404() throws Exception {
        assertEquals("HTTP/1.1 404 Not Found", status(exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n")));
        assertEquals("HTTP/1.1 404 Not Found", status(exchange("GET /metrics/x HTTP/1.1\r\nHost: x\r\n\r\n")));
        assertEquals("HTTP/1.1 404 Not Found", status(exchange("POST /admin HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")));
        assertEquals(0, scrapes.get(), "nothing was scraped");
    }

    @Test
    void shouldRefuseOtherMethodsWith405() throws Exception {
        String r = exchange("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi");
        assertEquals("HTTP/1.1 405 Method Not Allowed", status(r), r);
        assertTrue(r.contains("allow: GET, HEAD"), r);
        assertEquals("HTTP/1.1 405 Method Not Allowed",
                status(exchange("DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n")));
        assertEquals(0, scrapes.get());
    }

    @Test
    void shouldRefuseOversizedRequests() throws Exception {
        String longUri = "GET /metrics?" + "a".repeat(MetricsEndpoint.MAX_LINE_BYTES) + " HTTP/1.1\r\nHost: x\r\n\r\n";
        assertEquals("HTTP/1.1 414 Request-URI Too Long", status(exchange(longUri)));
        String bigHeader = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Pad: " + "b".repeat(MetricsEndpoint.MAX_HEADER_BYTES)
                + "\r\n\r\n";
        assertEquals("HTTP/1.1 431 Request Header Fields Too Large", status(exchange(bigHeader)));
        int n = MetricsEndpoint.MAX_BODY_BYTES + 1;
        String bigBody = "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: " + n + "\r\n\r\n" + "c".repeat(n);
        assertEquals("HTTP/1.1 413 Request Entity Too Large", status(exchange(bigBody)));
        assertEquals("HTTP/1.1 400 Bad Request", status(exchange("NOT HTTP AT ALL\r\n\r\n")));
        assertEquals(0, scrapes.get());
        assertEquals("HTTP/1.1 200 OK", status(exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")),
                "the endpoint still serves after refusing");
    }

    @Test
    void shouldCloseAConnectionThatTakesTooLong() throws Exception {
        try (MetricsEndpoint quick = MetricsEndpoint.start(InetSocketAddress.createUnresolved("127.0.0.1", 0),
                () -> "", 200); Socket s = new Socket()) {
            s.connect(quick.address(), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET /metr".getBytes(US_ASCII)); // and nothing more
            assertEquals(-1, s.getInputStream().read(), "closed without an answer once the time is up");
        }
    }

    @Test
    void shouldStopListeningWhenClosed() throws Exception {
        InetSocketAddress a = endpoint.address();
        endpoint.close();
        endpoint.close();
        assertThrows(IOException.class, () -> {
            try (Socket s = new Socket()) {
                s.connect(a, 2_000);
            }
        });
    }

    @Test
    void shouldReportAnAddressThatCannotBeBound() {
        IOException e = assertThrows(IOException.class, () -> MetricsEndpoint.start(endpoint.address(), () -> ""));
        assertTrue(e.getMessage().contains("cannot bind"), e.getMessage());
    }
}
