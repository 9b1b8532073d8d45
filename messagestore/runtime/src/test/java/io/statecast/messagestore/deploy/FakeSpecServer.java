package io.statecast.messagestore.deploy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A tiny spec server on loopback for the node side's tests, speaking the part of the real one's
 * protocol nodes use: {@code GET}/{@code HEAD /services/{id}} with a SHA-256 ETag (404 when
 * absent), and {@code PUT} that creates (201) or answers 412 when the id exists and the request
 * says {@code If-None-Match: *}. It records every PUT.
 */
final class FakeSpecServer implements AutoCloseable {

    /** One PUT as received. */
    record Put(int serviceId, byte[] body, String authorization, String ifNoneMatch, int status) {
    }

    final Map<Integer, byte[]> documents = new ConcurrentHashMap<>();
    final List<Put> puts = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();

    FakeSpecServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(executor);
        server.createContext("/services/", this::serve);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void serve(HttpExchange ex) throws IOException {
        int id;
        try {
            id = Integer.parseInt(ex.getRequestURI().getPath().substring("/services/".length()));
        } catch (NumberFormatException e) {
            ex.sendResponseHeaders(400, -1);
            ex.close();
            return;
        }
        switch (ex.getRequestMethod()) {
            case "PUT" -> {
                byte[] body;
                try (InputStream in = ex.getRequestBody()) {
                    body = in.readAllBytes();
                }
                String inm = ex.getRequestHeaders().getFirst("If-None-Match");
                boolean exists = documents.putIfAbsent(id, body) != null;
                int status = exists ? 412 : 201;
                puts.add(new Put(id, body, ex.getRequestHeaders().getFirst("Authorization"), inm, status));
                ex.sendResponseHeaders(status, -1);
                ex.close();
            }
            case "GET", "HEAD" -> {
                byte[] doc = documents.get(id);
                if (doc == null) {
                    ex.sendResponseHeaders(404, -1);
                    ex.close();
                    return;
                }
                ex.getResponseHeaders().set("ETag", "\"" + sha256(doc) + "\"");
                boolean head = ex.getRequestMethod().equals("HEAD");
                ex.sendResponseHeaders(200, head ? -1 : doc.length);
                try (OutputStream out = ex.getResponseBody()) {
                    if (!head) {
                        out.write(doc);
                    }
                }
            }
            default -> {
                ex.sendResponseHeaders(405, -1);
                ex.close();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
