package io.statecast.overlay.security;

import io.statecast.overlay.io.FileErrors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The keys of an overlay key file: one or two {@link OverlayKey}s with distinct ids. Frames are
 * sealed with the {@link #sending() first} key; frames sealed with any of them are accepted. Two
 * keys let a key be rotated without a restart (see {@code docs/security.md}).
 *
 * <p><b>File format</b> (UTF-8 text, at most {@value #MAX_FILE_BYTES} bytes): one key per line,
 * its id (decimal, 0..255), white space, and its secret in standard Base64
 * ({@value OverlayKey#MIN_SECRET_BYTES}..{@value OverlayKey#MAX_SECRET_BYTES} bytes once decoded).
 * Blank lines and lines starting with {@code #} are ignored.
 * <pre>
 * # statecast overlay key file — first key sends, every key is accepted
 * 7 q3Vh0m9cYzC2l8f3R0m1k8pQy3W3n0VQ2nqk5mY1x8E=
 * 6 5m0cN0b2x4pQ8d8g2b6mU0lW3Jf1mX9sZq2c4a7e1Hk=
 * </pre>
 */
public final class OverlayKeys {

    /** Largest key file read. */
    public static final int MAX_FILE_BYTES = 4096;
    /** Most keys in a file: the current one and the next (or previous) during a rotation. */
    public static final int MAX_KEYS = 2;

    private final List<OverlayKey> keys;
    private final OverlayKey[] byId = new OverlayKey[256];

    /**
     * @param keys 1..{@value #MAX_KEYS} keys with distinct ids; the first one seals
     * @throws IllegalArgumentException otherwise
     */
    public OverlayKeys(List<OverlayKey> keys) {
        if (keys.isEmpty() || keys.size() > MAX_KEYS) {
            throw new IllegalArgumentException(keys.size() + " keys; a key set holds 1.." + MAX_KEYS);
        }
        this.keys = List.copyOf(keys);
        for (OverlayKey k : this.keys) {
            if (byId[k.id()] != null) {
                throw new IllegalArgumentException("key id " + k.id() + " appears twice");
            }
            byId[k.id()] = k;
        }
    }

    /** The key frames are sealed with: the file's first. */
    public OverlayKey sending() {
        return keys.get(0);
    }

    /** The key of id {@code id} (0..255), or {@code null} if this set has none. */
    public OverlayKey byId(int id) {
        return byId[id];
    }

    /** Every key, the sending one first. */
    public List<OverlayKey> keys() {
        return keys;
    }

    /** Whether {@code other} holds the same keys in the same order. */
    public boolean sameAs(OverlayKeys other) {
        if (other.keys.size() != keys.size()) {
            return false;
        }
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.get(i).sameAs(other.keys.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads a key file.
     *
     * @throws KeyFileException naming the file (and line) if it cannot be read, is larger than
     *                          {@value #MAX_FILE_BYTES} bytes or is not in the documented format
     */
    public static OverlayKeys read(Path file) throws KeyFileException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new KeyFileException(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new KeyFileException(file + ": larger than " + MAX_FILE_BYTES + " bytes; a key file holds at most "
                    + MAX_KEYS + " keys");
        }
        return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * Parses the text of a key file.
     *
     * @param text   the file's content
     * @param source names the file in error messages
     * @throws KeyFileException naming {@code source} and the line if the text is not in the format
     */
    public static OverlayKeys parse(String text, String source) throws KeyFileException {
        List<OverlayKey> keys = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String at = source + ":" + (n + 1) + ": ";
            String[] parts = line.split("\\s+");
            if (parts.length != 2) {
                throw new KeyFileException(at + "a key line is '<id> <base64 secret>'; found " + parts.length + " fields");
            }
            int id;
            try {
                id = Integer.parseInt(parts[0]);
            } catch (NumberFormatException e) {
                throw new KeyFileException(at + "key id must be a decimal number 0..255");
            }
            if (id < 0 || id > 255) {
                throw new KeyFileException(at + "key id " + id + " must be within 0..255");
            }
            byte[] secret;
            try {
                secret = Base64.getDecoder().decode(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new KeyFileException(at + "key " + id + ": the secret is not standard Base64");
            }
            if (secret.length < OverlayKey.MIN_SECRET_BYTES || secret.length > OverlayKey.MAX_SECRET_BYTES) {
                throw new KeyFileException(at + "key " + id + " has " + secret.length + " bytes; must be "
                        + OverlayKey.MIN_SECRET_BYTES + ".." + OverlayKey.MAX_SECRET_BYTES
                        + " (generate one with: head -c 32 /dev/urandom | base64)");
            }
            for (OverlayKey k : keys) {
                if (k.id() == id) {
                    throw new KeyFileException(at + "key id " + id + " appears twice");
                }
            }
            if (keys.size() == MAX_KEYS) {
                throw new KeyFileException(at + "more than " + MAX_KEYS + " keys (the current one and the next)");
            }
            keys.add(new OverlayKey(id, secret));
            java.util.Arrays.fill(secret, (byte) 0);
        }
        if (keys.isEmpty()) {
            throw new KeyFileException(source + ": no key (a key line is '<id> <base64 secret>')");
        }
        return new OverlayKeys(keys);
    }

    @Override
    public String toString() {
        return "OverlayKeys" + keys;
    }
}
