package io.statecast.specserver;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spec server's on-disk repository: one file {@code <serviceId>.scxml} per service decides
 * what is served (the {@link SpecHistory} keeps copies of versions and a log, never metadata of
 * the current one). Metadata is not stored beside the document; it is derived by validating the document
 * again when the store opens, so there is no second file that could disagree with the first.
 *
 * <pre>
 *   dir/
 *     .lock                      held (FileChannel.tryLock) while a server uses the directory
 *     17.scxml                   service 17, exactly the bytes last accepted
 *     .upload-17-8423.tmp        an upload being written; deleted at open if a crash left it
 *     quarantine/
 *       9.scxml.1718000000000    a stored file that failed validation at open
 *       9.scxml.1718000000000.problems.txt
 *     history/17/&lt;sha256&gt;.scxml   kept versions, and audit.log: see {@link SpecHistory}
 * </pre>
 *
 * <p>A write goes to a temporary file in the same directory, is forced to disk, renamed over the
 * target with {@code ATOMIC_MOVE}, and the directory is forced too (where the platform allows),
 * so a crash at any moment leaves the old or the new version, never a torn one.
 *
 * <p>Mutations (put, delete) are serialized by one lock: the precondition check and the write are
 * atomic together. Reads take no lock: a reader opens either the old or the new file, and reports
 * the hash of the bytes it actually read.
 */
final class SpecStore implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(SpecStore.class);

    /** Suffix of a stored spec file. */
    static final String SUFFIX = ".scxml";
    /** Prefix of an upload's temporary file. */
    static final String TEMP_PREFIX = ".upload-";
    /** Suffix of an upload's temporary file. */
    static final String TEMP_SUFFIX = ".tmp";
    /** Subdirectory that receives stored files failing validation at open. */
    static final String QUARANTINE_DIR = "quarantine";
    /** Lock file that keeps two servers off one directory. */
    static final String LOCK_FILE = ".lock";

    private static final Pattern CANONICAL_ID = Pattern.compile("0|[1-9][0-9]{0,9}");

    private final Path directory;
    private final SpecCheck check;
    private final int maxSpecBytes;
    private final int maxServices;
    private final Clock clock;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ConcurrentHashMap<Integer, StoredSpec> index = new ConcurrentHashMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final List<Path> quarantined = new ArrayList<>();
    private final SpecHistory history;
    private volatile boolean directorySyncWarned;

    private SpecStore(Path directory, SpecCheck check, int maxSpecBytes, int maxServices, Clock clock,
                      FileChannel lockChannel, FileLock lock) {
        this.directory = directory;
        this.check = check;
        this.maxSpecBytes = maxSpecBytes;
        this.maxServices = maxServices;
        this.clock = clock;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.history = new SpecHistory(directory, this::syncDirectory);
    }

    /**
     * Opens (creating if needed) and locks the directory, removes temporary files a crash left,
     * validates every stored spec and moves the bad ones to {@value #QUARANTINE_DIR}.
     *
     * @param directory the storage directory
     * @param check validation applied to every stored document
     * @param maxSpecBytes largest document accepted
     * @param maxServices most services stored
     * @param clock source of {@link StoredSpec#storedAt()} for new writes
     * @return the open store
     * @throws IOException when the directory cannot be created, read or locked
     */
    static SpecStore open(Path directory, SpecCheck check, int maxSpecBytes, int maxServices, Clock clock) throws IOException {
        Path dir = directory.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory");
        }
        FileChannel lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            lockChannel.close();
            throw e;
        }
        if (lock == null) {
            lockChannel.close();
            throw new IOException(dir + " is in use by another spec server (" + LOCK_FILE + " is locked)");
        }
        SpecStore store = new SpecStore(dir, check, maxSpecBytes, maxServices, clock, lockChannel, lock);
        try {
            store.load();
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    private void load() throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path p : stream) {
                entries.add(p);
            }
        }
        entries.sort(Comparator.comparing(Path::toString));
        Path historyDir = directory.resolve(SpecHistory.HISTORY_DIR);
        if (Files.isDirectory(historyDir)) {
            try (DirectoryStream<Path> services = Files.newDirectoryStream(historyDir)) {
                for (Path d : services) {
                    if (Files.isDirectory(d)) {
                        try (DirectoryStream<Path> temps = Files.newDirectoryStream(d, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
                            for (Path t : temps) {
                                Files.deleteIfExists(t);
                            }
                        }
                    }
                }
            }
        }
        for (Path p : entries) {
            String name = p.getFileName().toString();
            if (!Files.isRegularFile(p)) {
                continue;
            }
            if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)) {
                Files.deleteIfExists(p);
                LOG.info("removed {}: an upload interrupted before it was committed", p);
            } else if (name.endsWith(SUFFIX)) {
                loadOne(p, name);
            }
        }
        syncDirectory(directory);
        LOG.info("spec store {}: {} services, {} quarantined", directory, index.size(), quarantined.size());
    }

    private void loadOne(Path file, String name) throws IOException {
        String idText = name.substring(0, name.length() - SUFFIX.length());
        Optional<Integer> id = parseServiceId(idText);
        if (id.isEmpty()) {
            quarantine(file, List.of(SpecProblem.unlocated("file name is not <serviceId>" + SUFFIX + " with a canonical decimal id in [0, 2147483647]")));
            return;
        }
        long size = Files.size(file);
        if (size > maxSpecBytes) {
            quarantine(file, List.of(SpecProblem.unlocated("file has " + size + " bytes > maxSpecBytes=" + maxSpecBytes)));
            return;
        }
        byte[] bytes = readBounded(file);
        SpecCheck.Validated result;
        try {
            result = check.check(bytes);
        } catch (RuntimeException | StackOverflowError e) {
            // Counted as invalid: quarantine is reversible (move the file back), a refusal to start is not.
            result = new SpecCheck.Validated.Invalid(List.of(SpecProblem.unlocated("validator failed: " + e)));
        }
        if (result instanceof SpecCheck.Validated.Invalid invalid) {
            quarantine(file, invalid.problems());
            return;
        }
        SpecMetadata metadata = ((SpecCheck.Validated.Valid) result).metadata();
        if (metadata.serviceId() != id.get()) {
            quarantine(file, List.of(SpecProblem.unlocated(
                    "document declares ServiceID " + metadata.serviceId() + " but is stored as " + name)));
            return;
        }
        Instant storedAt = Files.getLastModifiedTime(file).toInstant().truncatedTo(ChronoUnit.MILLIS);
        index.put(id.get(), new StoredSpec(metadata, sha256(bytes), bytes.length, storedAt));
    }

    private void quarantine(Path file, List<SpecProblem> problems) throws IOException {
        Path qdir = directory.resolve(QUARANTINE_DIR);
        Files.createDirectories(qdir);
        String base = file.getFileName() + "." + clock.millis();
        Path target = qdir.resolve(base);
        for (int n = 1; Files.exists(target); n++) {
            target = qdir.resolve(base + "-" + n);
        }
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(file, target);
        }
        StringBuilder report = new StringBuilder();
        for (SpecProblem p : problems) {
            report.append(p).append('\n');
        }
        Files.writeString(target.resolveSibling(target.getFileName() + ".problems.txt"), report, StandardCharsets.UTF_8);
        syncDirectory(qdir);
        quarantined.add(target);
        LOG.warn("quarantined {} as {}: {}", file.getFileName(), target, problems);
    }

    /**
     * Parses a ServiceID written in canonical decimal (no sign, no leading zeros), so each service
     * has exactly one file name and one URL. ServiceIDs are non-negative 32-bit integers, as the
     * spec schema ({@code xs:nonNegativeInteger} within an int) requires.
     *
     * @param text the candidate
     * @return the id, or empty when the text is not a canonical decimal in [0, 2^31-1]
     */
    static Optional<Integer> parseServiceId(String text) {
        if (text.length() > 10 || !CANONICAL_ID.matcher(text).matches()) {
            return Optional.empty();
        }
        long v = Long.parseLong(text);
        if (v > Integer.MAX_VALUE) {
            return Optional.empty();
        }
        return Optional.of((int) v);
    }

    /** @return every stored service, by ascending ServiceID */
    List<StoredSpec> list() {
        List<StoredSpec> all = new ArrayList<>(index.values());
        all.sort(Comparator.comparingInt(StoredSpec::serviceId));
        return all;
    }

    /** @return number of stored services */
    int size() {
        return index.size();
    }

    /**
     * @param serviceId the id
     * @return what is stored for it, if anything
     */
    Optional<StoredSpec> find(int serviceId) {
        return Optional.ofNullable(index.get(serviceId));
    }

    /** @return files moved to quarantine when the store opened */
    List<Path> quarantined() {
        return List.copyOf(quarantined);
    }

    /** @return the storage directory, absolute */
    Path directory() {
        return directory;
    }

    /**
     * The document bytes and their hash, as read now.
     *
     * @param bytes the document
     * @param sha256 lower-case hex hash of exactly these bytes
     */
    record Document(byte[] bytes, String sha256) {
    }

    /**
     * Reads a stored document.
     *
     * @param serviceId the id
     * @return the bytes and their hash, or empty when the service is not stored
     * @throws IOException when the file exists but cannot be read, or is larger than allowed
     */
    Optional<Document> read(int serviceId) throws IOException {
        if (!index.containsKey(serviceId)) {
            return Optional.empty();
        }
        try {
            byte[] bytes = readBounded(fileOf(serviceId));
            return Optional.of(new Document(bytes, sha256(bytes)));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // deleted between the index lookup and the open
        }
    }

    /**
     * Preconditions a write carries.
     *
     * @param ifMatch the parsed {@code If-Match} header
     * @param ifNoneMatch the parsed {@code If-None-Match} header
     */
    record Preconditions(Optional<EntityTags.Condition> ifMatch, Optional<EntityTags.Condition> ifNoneMatch) {
        /** No conditional headers. */
        static final Preconditions NONE = new Preconditions(Optional.empty(), Optional.empty());
    }

    /** Outcome of a write: a closed set. */
    sealed interface Outcome {
        /** @param spec the new service */
        record Created(StoredSpec spec) implements Outcome {
        }

        /** @param spec the new version */
        record Replaced(StoredSpec spec) implements Outcome {
        }

        /** @param spec the version that was removed */
        record Deleted(StoredSpec spec) implements Outcome {
        }

        /** Nothing stored under the id. */
        record NotFound() implements Outcome {
        }

        /** @param reason which precondition failed and why */
        record PreconditionFailed(String reason) implements Outcome {
        }

        /** @param maxServices the limit that creating one more would exceed */
        record Full(int maxServices) implements Outcome {
        }
    }

    /**
     * Evaluates the preconditions of a put without writing: lets the server answer 412 before it
     * spends time validating. {@link #put} evaluates them again under the lock.
     *
     * @param serviceId target id
     * @param pre preconditions
     * @return the failure, or empty when the write may proceed as things stand now
     */
    Optional<Outcome.PreconditionFailed> precheckPut(int serviceId, Preconditions pre) {
        return putPrecondition(Optional.ofNullable(index.get(serviceId)), pre);
    }

    /**
     * Stores a validated document, atomically with respect to its preconditions and to crashes.
     *
     * <p>Rules: creating a new id needs no {@code If-Match} ({@code If-None-Match: *} may be sent to
     * insist on creation); replacing an existing id needs an {@code If-Match} that lists its
     * current tag ({@code *} is refused: it would let two publishers overwrite each other without
     * either seeing the other's version); an {@code If-Match} on an absent id fails; an
     * {@code If-None-Match} that matches the current version fails.
     *
     * @param metadata what the document declares; its id is the target
     * @param document the bytes, already validated
     * @param pre preconditions
     * @return created, replaced, precondition failed, or full
     * @throws IOException when the write fails; the previous version is then still in place
     */
    Outcome put(SpecMetadata metadata, byte[] document, Preconditions pre) throws IOException {
        return put(metadata, document, pre, SpecHistory.Actor.LOCAL);
    }

    /** As {@link #put(SpecMetadata, byte[], Preconditions)}, recording {@code actor} in the audit log. */
    Outcome put(SpecMetadata metadata, byte[] document, Preconditions pre, SpecHistory.Actor actor) throws IOException {
        int id = metadata.serviceId();
        writeLock.lock();
        try {
            Optional<StoredSpec> current = Optional.ofNullable(index.get(id));
            Optional<Outcome.PreconditionFailed> failed = putPrecondition(current, pre);
            if (failed.isPresent()) {
                return failed.get();
            }
            return commit(metadata, document, current, current.isEmpty() ? "create" : "replace", actor);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Makes a kept version of a service current again (or brings a deleted service back), as a
     * write: {@code If-Match}, when given, must list the current tag.
     *
     * @param metadata what the version declares (validated by the caller)
     * @param document the version's bytes
     * @return created, replaced, precondition failed, or full
     */
    Outcome restore(SpecMetadata metadata, byte[] document, Preconditions pre, SpecHistory.Actor actor) throws IOException {
        int id = metadata.serviceId();
        writeLock.lock();
        try {
            Optional<StoredSpec> current = Optional.ofNullable(index.get(id));
            Optional<String> tag = current.map(StoredSpec::etag);
            if (pre.ifMatch().isPresent() && !pre.ifMatch().get().matchesStrong(tag)) {
                return current.isEmpty() ? new Outcome.PreconditionFailed("If-Match given but the service does not exist")
                        : new Outcome.PreconditionFailed("If-Match does not list the current ETag " + tag.get());
            }
            if (pre.ifNoneMatch().isPresent() && pre.ifNoneMatch().get().matchesWeak(tag)) {
                return new Outcome.PreconditionFailed("If-None-Match matches the current version " + tag.get());
            }
            return commit(metadata, document, current, "restore", actor);
        } finally {
            writeLock.unlock();
        }
    }

    /** Under the write lock: keeps both versions in the history, writes, logs. */
    private Outcome commit(SpecMetadata metadata, byte[] document, Optional<StoredSpec> current, String action,
            SpecHistory.Actor actor) throws IOException {
        int id = metadata.serviceId();
        if (current.isEmpty() && index.size() >= maxServices) {
            return new Outcome.Full(maxServices);
        }
        keepCurrent(current);
        Instant storedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        String sha = sha256(document);
        history.archive(id, document, sha, storedAt);
        writeAtomically(fileOf(id), document, storedAt);
        StoredSpec stored = new StoredSpec(metadata, sha, document.length, storedAt);
        index.put(id, stored);
        history.log(new SpecHistory.Entry(storedAt, action, id, sha, document.length, actor));
        return current.isEmpty() ? new Outcome.Created(stored) : new Outcome.Replaced(stored);
    }

    /** A version stored before the history existed is kept before it is replaced or deleted. */
    private void keepCurrent(Optional<StoredSpec> current) throws IOException {
        if (current.isPresent() && !history.has(current.get().serviceId(), current.get().sha256())) {
            Optional<Document> doc = read(current.get().serviceId());
            if (doc.isPresent()) {
                history.archive(current.get().serviceId(), doc.get().bytes(), doc.get().sha256(), current.get().storedAt());
            }
        }
    }

    /** The kept versions of a service, newest first. */
    List<SpecHistory.Version> versions(int serviceId) throws IOException {
        return history.versions(serviceId);
    }

    /** A kept version's bytes. */
    Optional<byte[]> version(int serviceId, String sha256) throws IOException {
        return history.read(serviceId, sha256, maxSpecBytes);
    }

    /** The audit log's entries about a service, newest first. */
    List<SpecHistory.Entry> auditEntries(int serviceId) throws IOException {
        return history.entries(serviceId);
    }

    private static Optional<Outcome.PreconditionFailed> putPrecondition(Optional<StoredSpec> current, Preconditions pre) {
        Optional<String> tag = current.map(StoredSpec::etag);
        if (pre.ifMatch().isPresent()) {
            if (current.isEmpty()) {
                return failed("If-Match given but the service does not exist");
            }
            if (pre.ifMatch().get().any()) {
                // '*' matches any version: two publishers could overwrite each other unseen
                return failed("If-Match: * cannot replace a spec; name its current ETag " + tag.get());
            }
            if (!pre.ifMatch().get().matchesStrong(tag)) {
                return failed("If-Match does not list the current ETag " + tag.get());
            }
        } else if (current.isPresent()) {
            return failed("the service exists: replacing it needs If-Match with its current ETag " + tag.get());
        }
        if (pre.ifNoneMatch().isPresent() && pre.ifNoneMatch().get().matchesWeak(tag)) {
            return failed("If-None-Match matches the current version " + tag.get());
        }
        return Optional.empty();
    }

    /**
     * Removes a service.
     *
     * @param serviceId the id
     * @param pre preconditions; {@code If-Match}, when given, must list the current tag
     * @return deleted, not found, or precondition failed
     * @throws IOException when the file cannot be removed
     */
    Outcome delete(int serviceId, Preconditions pre) throws IOException {
        return delete(serviceId, pre, SpecHistory.Actor.LOCAL);
    }

    /** As {@link #delete(int, Preconditions)}, recording {@code actor} in the audit log. */
    Outcome delete(int serviceId, Preconditions pre, SpecHistory.Actor actor) throws IOException {
        writeLock.lock();
        try {
            StoredSpec current = index.get(serviceId);
            Optional<String> tag = Optional.ofNullable(current).map(StoredSpec::etag);
            if (pre.ifMatch().isPresent() && !pre.ifMatch().get().matchesStrong(tag)) {
                return current == null
                        ? new Outcome.PreconditionFailed("If-Match given but the service does not exist")
                        : new Outcome.PreconditionFailed("If-Match does not list the current ETag " + tag.get());
            }
            if (pre.ifNoneMatch().isPresent() && pre.ifNoneMatch().get().matchesWeak(tag)) {
                return new Outcome.PreconditionFailed("If-None-Match matches the current version " + tag.get());
            }
            if (current == null) {
                return new Outcome.NotFound();
            }
            keepCurrent(Optional.of(current));
            Files.deleteIfExists(fileOf(serviceId));
            syncDirectory(directory);
            index.remove(serviceId);
            history.log(new SpecHistory.Entry(clock.instant().truncatedTo(ChronoUnit.MILLIS), "delete", serviceId,
                    current.sha256(), current.size(), actor));
            return new Outcome.Deleted(current);
        } finally {
            writeLock.unlock();
        }
    }

    private static Optional<Outcome.PreconditionFailed> failed(String reason) {
        return Optional.of(new Outcome.PreconditionFailed(reason));
    }

    private Path fileOf(int serviceId) {
        return directory.resolve(serviceId + SUFFIX);
    }

    private void writeAtomically(Path target, byte[] document, Instant storedAt) throws IOException {
        Path temp = Files.createTempFile(directory, TEMP_PREFIX + target.getFileName().toString().replace(SUFFIX, "") + "-", TEMP_SUFFIX);
        boolean committed = false;
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(document);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.setLastModifiedTime(temp, FileTime.from(storedAt));
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            committed = true;
        } finally {
            if (!committed) {
                Files.deleteIfExists(temp);
            }
        }
        syncDirectory(directory);
    }

    /**
     * Forces a directory's entries (the rename) to disk. Some platforms cannot open a directory as
     * a channel; there the rename's durability is left to the file system, and we say so once.
     */
    private void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            if (!directorySyncWarned) {
                directorySyncWarned = true;
                LOG.warn("cannot force directory {} to disk on this platform ({}); renames are durable only as the file system makes them", dir, e.toString());
            }
        }
    }

    private byte[] readBounded(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > maxSpecBytes) {
                throw new IOException(file + " has " + size + " bytes > maxSpecBytes=" + maxSpecBytes);
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    break; // truncated under us (cannot happen with rename-based writes); hash what we got
                }
            }
            byte[] bytes = new byte[buf.position()];
            buf.flip().get(bytes);
            return bytes;
        }
    }

    /**
     * @param bytes any bytes
     * @return lower-case hex SHA-256
     */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /** Releases the directory lock. */
    @Override
    public void close() throws IOException {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } finally {
            lockChannel.close();
        }
    }
}
