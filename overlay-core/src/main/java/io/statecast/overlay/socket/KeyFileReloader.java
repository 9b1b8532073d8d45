package io.statecast.overlay.socket;

import io.statecast.overlay.io.FileErrors;
import io.statecast.overlay.security.FrameAuthenticator;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.security.OverlayKeys;
import io.statecast.overlay.substrate.TimerService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link FrameAuthenticator}'s keys in step with the key file, so that a key can be
 * rotated without a restart: every {@code overlay.security.reloadMs} on the socket's timer thread
 * it compares the file's modification time, size and identity with those it last read, and reads
 * it again if any changed. A file that no longer reads (half written, malformed, removed) keeps
 * the keys in use and is logged once per change; it is tried again at every later change.
 */
final class KeyFileReloader {

    private static final Logger LOG = LoggerFactory.getLogger(KeyFileReloader.class);

    private final Path file;
    private final FrameAuthenticator auth;
    private final TimerService timers;
    private final long intervalMs;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Object lock = new Object();
    /** What the file looked like when last read; guarded by {@code lock}. */
    private String lastSeen;
    private volatile boolean stopped;
    private TimerService.Timer next;

    KeyFileReloader(Path file, FrameAuthenticator auth, TimerService timers, long intervalMs) {
        this.file = Objects.requireNonNull(file, "file");
        this.auth = Objects.requireNonNull(auth, "auth");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.intervalMs = intervalMs;
        this.lastSeen = stamp();
    }

    /** Starts polling (nothing if the interval is 0). */
    void start() {
        if (intervalMs > 0) {
            schedule();
        }
    }

    private void schedule() {
        synchronized (lock) {
            if (!stopped) {
                next = timers.schedule(intervalMs, TimeUnit.MILLISECONDS, this::poll);
            }
        }
    }

    private void poll() {
        try {
            String now = stamp();
            boolean changed;
            synchronized (lock) {
                changed = !now.equals(lastSeen);
                lastSeen = now;
            }
            if (changed) {
                try {
                    reload();
                } catch (KeyFileException e) {
                    LOG.warn("key file changed but cannot be used; keeping the keys in use: {}", e.getMessage());
                }
            }
        } finally {
            schedule();
        }
    }

    /**
     * Reads the file now and installs its keys.
     *
     * @return whether the keys differ from those in use
     * @throws KeyFileException if the file cannot be read or parsed (the keys in use stay)
     */
    boolean reload() throws KeyFileException {
        OverlayKeys keys;
        try {
            keys = OverlayKeys.read(file);
        } catch (KeyFileException e) {
            failures.incrementAndGet();
            throw e;
        }
        synchronized (lock) {
            if (keys.sameAs(auth.keys())) {
                return false;
            }
            auth.setKeys(keys);
        }
        reloads.incrementAndGet();
        LOG.info("overlay keys reloaded from {}: sending with key {}, accepting {}", file, keys.sending().id(),
                keys.keys().stream().map(k -> k.id()).toList());
        return true;
    }

    /** Times new keys were installed. */
    long reloads() {
        return reloads.get();
    }

    /** Times the file changed but could not be used. */
    long failures() {
        return failures.get();
    }

    void stop() {
        synchronized (lock) {
            stopped = true;
            if (next != null) {
                next.cancel();
            }
        }
    }

    private String stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.lastModifiedTime().toMillis() + "/" + a.lastModifiedTime().toString() + "/" + a.size() + "/" + a.fileKey();
        } catch (IOException e) {
            return "unreadable: " + FileErrors.describe(e);
        }
    }
}
