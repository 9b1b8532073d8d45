package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The public keys whose signatures a node or a spec server accepts on specs, by key id
 * ({@link SigningKey#keyId}). Immutable.
 *
 * @param keys the keys by key id
 */
public record TrustedKeys(Map<String, PublicKey> keys) {

    /** Most keys. */
    public static final int MAX_KEYS = 256;

    /** Copies the map; refuses an empty one. */
    public TrustedKeys {
        keys = Map.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no trusted keys");
        }
    }

    /** Trusts {@code keys}. */
    public static TrustedKeys of(List<PublicKey> keys) {
        Map<String, PublicKey> m = new LinkedHashMap<>();
        for (PublicKey k : keys) {
            m.put(SigningKey.keyId(k), k);
        }
        return new TrustedKeys(m);
    }

    /**
     * Reads the public key files ({@code .pub}, PEM).
     *
     * @throws IOException naming the file that cannot be read or holds no Ed25519 public key
     */
    public static TrustedKeys read(List<Path> files) throws IOException {
        if (files.isEmpty()) {
            throw new IOException("no trusted key files given");
        }
        Map<String, PublicKey> m = new LinkedHashMap<>();
        for (Path f : files) {
            for (PublicKey k : SigningKey.readPublic(f)) {
                m.put(SigningKey.keyId(k), k);
            }
        }
        if (m.size() > MAX_KEYS) {
            throw new IOException("more than " + MAX_KEYS + " trusted keys in " + files);
        }
        return new TrustedKeys(m);
    }

    /** The key with this id. */
    public Optional<PublicKey> key(String keyId) {
        return Optional.ofNullable(keys.get(keyId));
    }

    @Override
    public String toString() {
        return "TrustedKeys" + keys.keySet();
    }
}
