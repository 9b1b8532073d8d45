package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzzing of the spec server's HTTP handling over real loopback sockets: requests mutated
 * from the seeds in {@code src/test/resources/fuzz/} (flipped, inserted, deleted and repeated bytes,
 * dictionary tokens, spliced seeds, re-chunked bodies, oversized parts, other methods), each sent
 * on its own connection in random pieces, then the sending side is shut. Every case must end with
 * the server closing the connection in bounded time, every byte it sent must parse as a sequence of
 * well-formed HTTP/1.1 responses with a status the API uses, the server must log no internal
 * error, the stored specs must be unchanged, and legitimate requests must work afterwards.
 *
 * <p>The default run fuzzes for {@value #DEFAULT_SECONDS} s (up to {@code statecast.fuzz.cases});
 * {@code -Psoak} runs all of {@code statecast.fuzz.cases} (10^6). Case {@code i} of seed {@code S}
 * is the same on every run: a failure prints both, and {@code -Dstatecast.seed=S} repeats the run.
 */
class HttpFuzzTest {

    private static final int DEFAULT_SECONDS = 20;
    private static final int THREADS = 4;
    /** Statuses the API answers with; 500 is not among them (an internal error is a finding). */
    private static final Set<Integer> STATUSES = Set.of(100, 200, 201, 204, 304, 400, 401, 404, 405, 408, 409, 412,
            413, 414, 417, 431, 503, 507);
    private static final byte[][] DICTIONARY = tokens(
            "\r\n", "\r\n\r\n", "\n", "\r", ":", " ", "\t", "\0", "%", "%00", "%zz", "?", "#", "/", "..", "*",
            "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: identity\r\n",
            "Content-Length: 0\r\n", "Content-Length: 99999999999999999999\r\n", "Content-Length: -1\r\n",
            "Content-Length: 5\r\nContent-Length: 6\r\n", "Content-Length: 300000\r\n", "Expect: 100-continue\r\n",
            "Expect: something-else\r\n", "Connection: close\r\n", "Connection: keep-alive\r\n", "Host: \r\n",
            "Authorization: Bearer \r\n", "Authorization: Basic Zm9vOmJhcg==\r\n", "If-Match: *\r\n",
            "If-None-Match: \"\r\n", "HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "0\r\n\r\n", "ffffffffffffffff\r\n",
            "/services/2147483648", "/services/007", "/services/", "/catalogue/", "/catalogue/2", "?page=",
            "?page=999999", "\u00ff\u00fe", "\u0080", "GET ", "PUT ", "DELETE ", "HEAD ", "OPTIONS ");
    private static final String[] METHODS = {"GET", "HEAD", "PUT", "DELETE", "POST", "OPTIONS", "TRACE", "CONNECT",
        "PATCH", "get", "G\u0000T", "", "GET GET"};

    @TempDir
    Path dir;

    private static byte[][] tokens(String... s) {
        byte[][] t = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            t[i] = s[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return t;
    }

    /** The seed requests, with CRLF line ends and {@code {len}} filled in. */
    static List<byte[]> seeds() throws IOException, URISyntaxException {
        URL url = HttpFuzzTest.class.getResource("/fuzz");
        assertTrue(url != null, "the fuzz corpus is on the test classpath");
        List<byte[]> seeds = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".http")).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1).replace("\n", "\r\n");
                int blank = text.indexOf("\r\n\r\n");
                if (text.contains("{len}") && blank >= 0) {
                    text = text.replace("{len}", Integer.toString(text.length() - blank - 4));
                }
                seeds.add(text.getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        assertTrue(seeds.size() >= 10, "seeds: " + seeds.size());
        return seeds;
    }

    /** Builds case {@code index}: the same bytes for the same seed and index, on any thread. */
    static byte[] fuzzCase(long seed, long index, List<byte[]> seeds) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        ByteList b = new ByteList(seeds.get(r.nextInt(seeds.size())));
        int mutations = index % 16 == 0 ? 0 : 1 + r.nextInt(4); // some seeds go out intact
        for (int m = 0; m < mutations; m++) {
            int at = r.nextInt(b.size() + 1);
            switch (r.nextInt(10)) {
                case 0 -> { // flip bytes
                    for (int k = 1 + r.nextInt(8); k > 0 && b.size() > 0; k--) {
                        int i = r.nextInt(b.size());
                        b.set(i, (byte) (b.get(i) ^ (1 << r.nextInt(8))));
                    }
                }
                case 1 -> b.insert(at, DICTIONARY[r.nextInt(DICTIONARY.length)]);
                case 2 -> { // random bytes
                    byte[] junk = new byte[1 + r.nextInt(32)];
                    for (int i = 0; i < junk.length; i++) {
                        junk[i] = (byte) r.nextInt(256);
                    }
                    b.insert(at, junk);
                }
                case 3 -> b.delete(at, Math.min(b.size(), at + 1 + r.nextInt(64)));
                case 4 -> { // repeat a range: long lines, many headers, big bodies
                    int from = r.nextInt(b.size() + 1);
                    int to = Math.min(b.size(), from + 1 + r.nextInt(80));
                    byte[] part = b.slice(from, to);
                    int times = 1 + r.nextInt(r.nextInt(4) == 0 ? 5000 : 20);
                    for (int t = 0; t < times && part.length > 0 && b.size() < 600_000; t++) {
                        b.insert(to, part);
                    }
                }
                case 5 -> b.truncate(r.nextInt(b.size() + 1));
                case 6 -> { // splice: this one's prefix, another seed's suffix
                    byte[] other = seeds.get(r.nextInt(seeds.size()));
                    b.truncate(at);
                    b.insert(b.size(), java.util.Arrays.copyOfRange(other, r.nextInt(other.length + 1), other.length));
                }
                case 7 -> { // oversized part
                    byte[] big = new byte[1 + r.nextInt(r.nextBoolean() ? 20_000 : 300_000)];
                    java.util.Arrays.fill(big, (byte) "aA0/ %".charAt(r.nextInt(6)));
                    b.insert(at, big);
                }
                case 8 -> rechunk(b, r);
                default -> { // another method
                    int space = b.indexOf((byte) ' ');
                    if (space >= 0) {
                        b.delete(0, space);
                        b.insert(0, METHODS[r.nextInt(METHODS.length)].getBytes(StandardCharsets.ISO_8859_1));
                    }
                }
            }
        }
        return b.toArray();
    }

    /** Replaces the body after the head with a chunked encoding of it, valid or subtly not. */
    private static void rechunk(ByteList b, SplittableRandom r) {
        int blank = b.indexOf("\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (blank < 0) {
            return;
        }
        byte[] body = b.slice(blank + 4, b.size());
        b.truncate(blank + 2);
        b.insert(b.size(), "Transfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        int pos = 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (pos < body.length) {
            int n = Math.min(body.length - pos, 1 + r.nextInt(64));
            String size = Integer.toHexString(n);
            switch (r.nextInt(12)) {
                case 0 -> size = size.toUpperCase(java.util.Locale.ROOT);
                case 1 -> size = size + ";name=value";
                case 2 -> size = "0" + size;
                case 3 -> size = Integer.toHexString(n + 1 + r.nextInt(3)); // lies: longer than sent
                case 4 -> size = "-" + size;
                case 5 -> size = "fffffffffffffffffff";
                default -> {
                }
            }
            out.writeBytes((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, pos, n);
            out.writeBytes((r.nextInt(20) == 0 ? "\n" : "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            pos += n;
        }
        out.writeBytes((r.nextBoolean() ? "0\r\n\r\n" : "0\r\nX-Trailer: " + "t".repeat(r.nextInt(10_000)) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        b.insert(b.size(), out.toByteArray());
    }

    /** Sends one case from {@code from}, shuts the sending side, and reads until the server closes. */
    static byte[] exchange(InetSocketAddress server, InetAddress from, byte[] request, SplittableRandom r, Duration deadline)
            throws IOException {
        try (Socket s = new Socket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(from, 0));
            s.connect(server, 5000);
            s.setSoLinger(true, 0); // no TIME_WAIT: a million cases would exhaust the ports
            OutputStream out = s.getOutputStream();
            int pos = 0;
            try {
                while (pos < request.length) {
                    int n = r.nextInt(4) == 0 ? request.length - pos : Math.min(request.length - pos, 1 + r.nextInt(Math.max(1, request.length)));
                    out.write(request, pos, n);
                    out.flush();
                    pos += n;
                }
                s.shutdownOutput();
            } catch (SocketException e) {
                // the server answered and closed before reading everything: what it sent is still checked
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            long end = System.nanoTime() + deadline.toNanos();
            byte[] buf = new byte[16 * 1024];
            while (true) {
                long left = (end - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new SocketTimeoutException("the server did not close the connection within " + deadline.toMillis()
                            + " ms of the request; it sent " + got.size() + " bytes");
                }
                s.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketException e) {
                    return got.toByteArray(); // reset after closing: what arrived is what it sent
                }
                if (n < 0) {
                    return got.toByteArray();
                }
                got.write(buf, 0, n);
            }
        }
    }

    /**
     * Parses {@code bytes} as consecutive HTTP/1.1 responses and returns their statuses; fails
     * naming what is malformed. A response without a body (HEAD, 304, 1xx) is recognised by the
     * next response's status line starting where its body would.
     */
    static List<Integer> statuses(byte[] bytes) {
        List<Integer> statuses = new ArrayList<>();
        int pos = 0;
        while (pos < bytes.length) {
            int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), pos);
            if (end < 0) {
                throw new AssertionError("a response head without its end at byte " + pos);
            }
            String[] lines = new String(bytes, pos, end - pos, StandardCharsets.ISO_8859_1).split("\r\n", -1);
            if (!lines[0].matches("HTTP/1\\.1 [1-5][0-9][0-9] [A-Za-z -]+")) {
                throw new AssertionError("bad status line: " + lines[0]);
            }
            int status = Integer.parseInt(lines[0].substring(9, 12));
            if (!STATUSES.contains(status)) {
                throw new AssertionError("unexpected status " + status);
            }
            long length = -1;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0 || !lines[i].substring(0, colon).matches("[A-Za-z0-9-]+")
                        || lines[i].chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
                    throw new AssertionError("bad header line: " + lines[i]);
                }
                if (lines[i].substring(0, colon).equalsIgnoreCase("content-length")) {
                    length = Long.parseLong(lines[i].substring(colon + 1).trim());
                }
            }
            pos = end + 4;
            boolean bodyless = status < 200 || status == 204 || status == 304 || length <= 0
                    || startsWith(bytes, pos, "HTTP/1.1 ") || pos + length > bytes.length && pos == bytes.length;
            if (!bodyless) {
                if (pos + length > bytes.length) {
                    throw new AssertionError("a body of " + length + " bytes is cut after " + (bytes.length - pos));
                }
                pos += (int) length;
            }
            statuses.add(status);
        }
        return statuses;
    }

    private static boolean startsWith(byte[] b, int at, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.ISO_8859_1);
        return indexOf(b, p, at) == at;
    }

    private static int indexOf(byte[] b, byte[] p, int from) {
        outer:
        for (int i = from; i <= b.length - p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                if (b[i + j] != p[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static String show(byte[] request) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(request.length, 600); i++) {
            int c = request[i] & 0xff;
            s.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return s + (request.length > 600 ? "... (" + request.length + " bytes)" : "");
    }

    @Test
    void shouldSurviveMutatedRequestsAndKeepEveryStoredSpec() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        boolean soak = Boolean.getBoolean("statecast.soak");
        long cases = Long.getLong("statecast.fuzz.cases", 50_000);
        Duration budget = soak ? Duration.ofHours(4) : Duration.ofSeconds(DEFAULT_SECONDS);
        System.out.println("HttpFuzzTest seed=" + seed + " (repeat with -Dstatecast.seed=" + seed + "), up to " + cases
                + " cases in " + budget.toSeconds() + " s");
        List<byte[]> seeds = seeds();
        SpecServerLimits limits = SpecServerLimits.DEFAULTS
                .withHeaderTimeout(Duration.ofMillis(500))
                .withRequestTimeout(Duration.ofMillis(1500))
                .withProcessingTimeout(Duration.ofSeconds(5));
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN).withLimits(limits), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            Map<Integer, byte[]> stored = new TreeMap<>();
            for (int id = 1; id <= 3; id++) {
                byte[] doc = TestSpecs.described(id, "svc" + id, "Service " + id, new String[] {"T", "duration", "5", "t"});
                assertEquals(201, http.send(http.authorized(http.put("/services/" + id, doc))).statusCode());
                stored.put(id, doc);
            }
            String listBefore = http.get("/services").body();

            AtomicLong next = new AtomicLong();
            LongAdder done = new LongAdder();
            LongAdder slow = new LongAdder();
            Map<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();
            long stopAt = System.nanoTime() + budget.toNanos();
            Duration closeDeadline = limits.requestTimeout().plus(limits.processingTimeout()).plusSeconds(5);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    runs.add(pool.submit(() -> {
                        while (System.nanoTime() - stopAt < 0) {
                            long i = next.getAndIncrement();
                            if (i >= cases) {
                                return null;
                            }
                            byte[] request = fuzzCase(seed, i, seeds);
                            SplittableRandom pieces = new SplittableRandom(seed ^ i);
                            // Spread over source addresses: each thread its own /24, so no per-address limit is reached.
                            InetAddress from = InetAddress.getByAddress(new byte[] {127, 1, (byte) (thread + 1), (byte) (2 + i % 250)});
                            long started = System.nanoTime();
                            try {
                                byte[] response = exchange(server.address(), from, request, pieces, closeDeadline);
                                if (System.nanoTime() - started > 250_000_000L) {
                                    slow.increment();
                                }
                                for (int status : statuses(response)) {
                                    byStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
                                }
                            } catch (IOException | AssertionError e) {
                                throw new AssertionError("seed=" + seed + " case=" + i + ": " + e.getMessage()
                                        + "\nrequest: " + show(request), e);
                            }
                            done.increment();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : runs) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        if (e.getCause() instanceof AssertionError a) {
                            throw a;
                        }
                        throw new AssertionError("seed=" + seed + ": " + e.getCause(), e.getCause());
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            System.out.println("HttpFuzzTest seed=" + seed + ": " + done.sum() + " cases (" + slow.sum()
                    + " took over 250 ms), responses by status " + new TreeMap<>(byStatus));
            assertTrue(done.sum() >= Math.min(cases, 100), "too few cases ran: " + done.sum());

            Map<String, Long> metrics = server.metrics().snapshot();
            assertEquals(0, metrics.get("internalErrors"), "seed=" + seed + ": no internal error: " + metrics);
            assertEquals(0, metrics.get("specsWritten") - 3, "nothing written by the fuzzer: " + metrics);
            assertEquals(0, metrics.get("specsDeleted"), metrics.toString());
            assertEquals(listBefore, http.get("/services").body(), "the stored list is unchanged");
            for (Map.Entry<Integer, byte[]> e : stored.entrySet()) {
                assertArrayEquals(e.getValue(), http.sendBytes(http.request("/services/" + e.getKey()).GET()).body());
            }
            assertEquals(200, http.get("/health").statusCode());
            assertEquals(200, http.get("/").statusCode());
            assertEquals(200, http.get("/catalogue/1").statusCode());
            byte[] update = TestSpecs.spec(2, "updated");
            assertEquals(200, http.send(http.authorized(http.put("/services/2", update))
                    .header("If-Match", EntityTags.of(SpecStore.sha256(stored.get(2))))).statusCode(),
                    "a legitimate write still works");
        } catch (UncheckedIOException e) {
            fail("seed=" + seed + ": " + e);
        }
    }

    /** A growable byte array for mutations. */
    static final class ByteList {
        private byte[] a;
        private int n;

        ByteList(byte[] init) {
            a = java.util.Arrays.copyOf(init, Math.max(16, init.length * 2));
            n = init.length;
        }

        int size() {
            return n;
        }

        byte get(int i) {
            return a[i];
        }

        void set(int i, byte v) {
            a[i] = v;
        }

        void insert(int at, byte[] bytes) {
            if (n + bytes.length > a.length) {
                a = java.util.Arrays.copyOf(a, Math.max(a.length * 2, n + bytes.length));
            }
            System.arraycopy(a, at, a, at + bytes.length, n - at);
            System.arraycopy(bytes, 0, a, at, bytes.length);
            n += bytes.length;
        }

        void delete(int from, int to) {
            System.arraycopy(a, to, a, from, n - to);
            n -= to - from;
        }

        void truncate(int length) {
            n = Math.min(n, length);
        }

        byte[] slice(int from, int to) {
            return java.util.Arrays.copyOfRange(a, from, to);
        }

        int indexOf(byte b) {
            for (int i = 0; i < n; i++) {
                if (a[i] == b) {
                    return i;
                }
            }
            return -1;
        }

        int indexOf(byte[] p) {
            return HttpFuzzTest.indexOf(toArray(), p, 0);
        }

        byte[] toArray() {
            return java.util.Arrays.copyOf(a, n);
        }
    }
}
