package io.statecast.specserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versions of every service the server has stored, and the audit log of every change.
 *
 * <pre>
 *   dir/
 *     history/17/&lt;sha256&gt;.scxml   a version of service 17 ever stored, named by its SHA-256;
 *                                   its modification time is when it was last stored
 *     audit.log                     one JSON object per line and change (audit.log.1: the previous file)
 * </pre>
 *
 * <p>Versions are written like the current file (temporary file, force, atomic rename) before the
 * change they belong to; the audit line is appended and forced after it. A crash between the
 * change and its line loses that line; it never records a change that did not happen. At most
 * {@value #MAX_VERSIONS} versions per service are kept (the oldest go first; the current one never
 * does); the log rotates to {@code audit.log.1} past {@value #MAX_LOG_BYTES} bytes. Callers
 * serialize writes (the store's write lock); reads may run at any time.
 */
final class SpecHistory {

    private static final Logger LOG = LoggerFactory.getLogger(SpecHistory.class);

    /** Subdirectory of the versions. */
    static final String HISTORY_DIR = "history";
    /** The audit log. */
    static final String AUDIT_LOG = "audit.log";
    /** Most versions kept per service. */
    static final int MAX_VERSIONS = 32;
    /** Size past which the log rotates. */
    static final long MAX_LOG_BYTES = 4L * 1024 * 1024;
    /** Most log entries one history answer lists. */
    static final int MAX_ENTRIES = 200;
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    /** Who made a change: the token's identity, the client's address, the signing key. */
    record Actor(String who, String from, Optional<String> signedBy) {
        /** A change made through the Java API, not a request. */
        static final Actor LOCAL = new Actor("local", "-", Optional.empty());
    }

    /**
     * One stored version.
     *
     * @param sha256 its hash (and name)
     * @param size its length
     * @param storedAt when it was last stored
     */
    record Version(String sha256, long size, Instant storedAt) {
    }

    /**
     * One audit log line.
     *
     * @param time when
     * @param action {@code create}, {@code replace}, {@code delete} or {@code restore}
     * @param serviceId which service
     * @param sha256 the version stored (for delete: the version removed)
     * @param size its length
     * @param actor who
     */
    record Entry(Instant time, String action, int serviceId, String sha256, long size, Actor actor) {
    }

    private final Path directory;
    private final Path history;
    private final ObjectMapper json = new ObjectMapper();
    private final SyncDirectory sync;

    /** Forces a directory to disk (the store's, which says once when the platform cannot). */
    interface SyncDirectory {
        void sync(Path dir);
    }

    SpecHistory(Path directory, SyncDirectory sync) {
        this.directory = directory;
        this.history = directory.resolve(HISTORY_DIR);
        this.sync = sync;
    }

    static boolean isSha256(String s) {
        return s != null && SHA256.matcher(s).matches();
    }

    private Path dirOf(int serviceId) {
        return history.resolve(Integer.toString(serviceId));
    }

    /**
     * Keeps {@code document} as a version of {@code serviceId} (its time set to {@code at}), then
     * drops the oldest versions beyond {@value #MAX_VERSIONS}, never {@code sha256}.
     */
    void archive(int serviceId, byte[] document, String sha256, Instant at) throws IOException {
        Path dir = dirOf(serviceId);
        Files.createDirectories(dir);
        Path target = dir.resolve(sha256 + SpecStore.SUFFIX);
        if (Files.exists(target)) {
            Files.setLastModifiedTime(target, FileTime.from(at));
        } else {
            Path temp = Files.createTempFile(dir, SpecStore.TEMP_PREFIX, SpecStore.TEMP_SUFFIX);
            boolean committed = false;
            try {
                try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer buf = ByteBuffer.wrap(document);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
                Files.setLastModifiedTime(temp, FileTime.from(at));
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                committed = true;
            } finally {
                if (!committed) {
                    Files.deleteIfExists(temp);
                }
            }
            sync.sync(dir);
        }
        List<Version> all = versions(serviceId);
        for (int i = MAX_VERSIONS; i < all.size(); i++) {
            if (!all.get(i).sha256().equals(sha256)) {
                Files.deleteIfExists(dir.resolve(all.get(i).sha256() + SpecStore.SUFFIX));
            }
        }
    }

    /** Whether {@code sha256} is kept for {@code serviceId}. */
    boolean has(int serviceId, String sha256) {
        return isSha256(sha256) && Files.isRegularFile(dirOf(serviceId).resolve(sha256 + SpecStore.SUFFIX));
    }

    /** The kept versions of {@code serviceId}, newest first. */
    List<Version> versions(int serviceId) throws IOException {
        Path dir = dirOf(serviceId);
        List<Version> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + SpecStore.SUFFIX)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                String sha = name.substring(0, name.length() - SpecStore.SUFFIX.length());
                if (!isSha256(sha)) {
                    continue;
                }
                try {
                    out.add(new Version(sha, Files.size(p), Files.getLastModifiedTime(p).toInstant()));
                } catch (NoSuchFileException e) {
                    // pruned meanwhile
                }
            }
        }
        out.sort(Comparator.comparing(Version::storedAt).reversed().thenComparing(Version::sha256));
        return out;
    }

    /** The bytes of a kept version, if kept and at most {@code maxBytes} long. */
    Optional<byte[]> read(int serviceId, String sha256, int maxBytes) throws IOException {
        if (!isSha256(sha256)) {
            return Optional.empty();
        }
        Path p = dirOf(serviceId).resolve(sha256 + SpecStore.SUFFIX);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            if (ch.size() > maxBytes) {
                throw new IOException(p + " has " + ch.size() + " bytes > maxSpecBytes=" + maxBytes);
            }
            ByteBuffer buf = ByteBuffer.allocate((int) ch.size());
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read all
            }
            byte[] b = new byte[buf.position()];
            buf.flip().get(b);
            return Optional.of(b);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Appends {@code e} to the log and forces it to disk; rotates the log first when it is full. */
    void log(Entry e) throws IOException {
        ObjectNode o = json.createObjectNode();
        o.put("time", e.time().toString());
        o.put("action", e.action());
        o.put("serviceId", e.serviceId());
        o.put("sha256", e.sha256());
        o.put("size", e.size());
        o.put("who", e.actor().who());
        o.put("from", e.actor().from());
        if (e.actor().signedBy().isPresent()) {
            o.put("signedBy", e.actor().signedBy().get());
        } else {
            o.putNull("signedBy");
        }
        byte[] line = (json.writeValueAsString(o) + "\n").getBytes(StandardCharsets.UTF_8);
        Path log = directory.resolve(AUDIT_LOG);
        if (Files.exists(log) && Files.size(log) + line.length > MAX_LOG_BYTES) {
            Files.move(log, directory.resolve(AUDIT_LOG + ".1"), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer buf = ByteBuffer.wrap(line);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        LOG.info("audit: {} service {} {} by {} from {}{}", e.action(), e.serviceId(), e.sha256(), e.actor().who(),
                e.actor().from(), e.actor().signedBy().map(k -> ", signed by " + k).orElse(""));
    }

    /** The last {@value #MAX_ENTRIES} log entries about {@code serviceId}, newest first. Unreadable lines are skipped. */
    List<Entry> entries(int serviceId) throws IOException {
        Deque<Entry> out = new ArrayDeque<>();
        for (Path p : List.of(directory.resolve(AUDIT_LOG + ".1"), directory.resolve(AUDIT_LOG))) {
            List<String> lines;
            try {
                if (Files.size(p) > MAX_LOG_BYTES * 2) {
                    continue; // not ours
                }
                lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                continue;
            }
            for (String line : lines) {
                Optional<Entry> e = parse(line);
                if (e.isPresent() && e.get().serviceId() == serviceId) {
                    out.addFirst(e.get());
                    if (out.size() > MAX_ENTRIES) {
                        out.removeLast();
                    }
                }
            }
        }
        return new ArrayList<>(out);
    }

    private Optional<Entry> parse(String line) {
        try {
            JsonNode n = json.readTree(line);
            if (n == null || !n.isObject()) {
                return Optional.empty();
            }
            JsonNode signed = n.path("signedBy");
            return Optional.of(new Entry(Instant.parse(n.path("time").asText()), n.path("action").asText(),
                    n.path("serviceId").asInt(-1), n.path("sha256").asText(), n.path("size").asLong(),
                    new Actor(n.path("who").asText(), n.path("from").asText(),
                            signed.isTextual() ? Optional.of(signed.asText()) : Optional.empty())));
        } catch (IOException | DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
