package io.statecast.specserver;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A plain loopback socket for sending what HTTP clients refuse to send, and reading raw answers. */
final class RawConnection implements Closeable {

    /** A parsed response: status, lower-cased header names, body as text. */
    record Response(int status, Map<String, String> headers, String body) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(InetSocketAddress server) throws IOException {
        this(server, null);
    }

    /** A connection from {@code from} (a loopback address such as 127.0.0.2), or any address when null. */
    RawConnection(InetSocketAddress server, InetAddress from) throws IOException {
        socket = new Socket();
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(new InetSocketAddress("127.0.0.1", server.getPort()), 5000);
        socket.setSoTimeout(5000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String s) throws IOException {
        send(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] b) throws IOException {
        out.write(b);
        out.flush();
    }

    /** Sends, tolerating a server that has already closed (it may answer and close before reading all). */
    boolean trySend(byte[] b) {
        try {
            send(b);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads one response (head, then a Content-Length body); fails on EOF before a complete head. */
    Response readResponse() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed after " + head.size() + " bytes of a response head: " + head);
            }
            head.write(c);
            matched = (c == "\r\n\r\n".charAt(matched)) ? matched + 1 : (c == '\r' ? 1 : 0);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        int status = Integer.parseInt(statusLine[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    /**
     * Whether the server closes the connection within {@code timeout}, ignoring any bytes it sends
     * first.
     */
    boolean closedWithin(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] buf = new byte[8192];
        while (System.nanoTime() - deadline < 0) {
            socket.setSoTimeout((int) Math.max(1, Math.min(1000, (deadline - System.nanoTime()) / 1_000_000)));
            try {
                if (in.read(buf) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // keep waiting until the deadline
            } catch (SocketException e) {
                return true; // reset by the server: closed as well
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
