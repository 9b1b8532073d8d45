package io.statecast.messagestore.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A publisher's Ed25519 key pair for signing specs ({@link SpecSignatures}), with the JDK's own
 * provider, and its files.
 *
 * <p>Files are PEM: the private key file holds a {@code PRIVATE KEY} block (PKCS#8, as
 * {@code openssl genpkey -algorithm ed25519} writes) followed by the {@code PUBLIC KEY} block of
 * the same pair; the public key file holds the {@code PUBLIC KEY} block (X.509
 * SubjectPublicKeyInfo). A key is named by its <em>key id</em>: the first 16 hex digits of the
 * SHA-256 of its public key's X.509 encoding.
 *
 * @param keyId      the key id
 * @param privateKey the private key
 * @param publicKey  the public key
 */
public record SigningKey(String keyId, PrivateKey privateKey, PublicKey publicKey) {

    /** The algorithm, and the name of the JDK's key and signature services. */
    public static final String ALGORITHM = "Ed25519";
    /** Largest key file read. */
    public static final int MAX_KEY_FILE_BYTES = 16 * 1024;
    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

    /** Checks for nulls. */
    public SigningKey {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKey, "publicKey");
    }

    /** A new random key pair. */
    public static SigningKey generate() {
        try {
            KeyPair kp = KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
            return new SigningKey(keyId(kp.getPublic()), kp.getPrivate(), kp.getPublic());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM + " (every JDK 15+ has)", e);
        }
    }

    /** The key id of {@code publicKey}. */
    public static String keyId(PublicKey publicKey) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(publicKey.getEncoded());
            return HexFormat.of().formatHex(h, 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Writes {@code prefix.key} (readable and writable by its owner only, where the file system
     * has POSIX permissions) and {@code prefix.pub}. Neither may exist.
     *
     * @throws FileAlreadyExistsException if either exists (nothing is written then)
     */
    public void write(Path prefix) throws IOException {
        Path key = Path.of(prefix + ".key");
        Path pub = Path.of(prefix + ".pub");
        for (Path p : List.of(key, pub)) {
            if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(p.toString(), null, "exists already; not overwriting a key");
            }
        }
        String publicPem = pem("PUBLIC KEY", publicKey.getEncoded());
        String privatePem = pem("PRIVATE KEY", privateKey.getEncoded()) + publicPem;
        boolean posix = Files.getFileAttributeView(key.toAbsolutePath().getParent(),
                java.nio.file.attribute.PosixFileAttributeView.class) != null;
        if (posix) {
            Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(key);
        }
        Files.writeString(key, privatePem, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        try {
            Files.writeString(pub, publicPem, StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            Files.deleteIfExists(key);
            throw e;
        }
    }

    /**
     * Reads a private key file written by {@link #write} (or by OpenSSL, with the public key block
     * appended) and checks that its two keys are one pair.
     *
     * @throws IOException naming the file and what is wrong with it
     */
    public static SigningKey read(Path file) throws IOException {
        List<Block> blocks = blocks(file);
        byte[] priv = null;
        byte[] pub = null;
        for (Block b : blocks) {
            if (b.type.equals("PRIVATE KEY") && priv == null) {
                priv = b.der;
            } else if (b.type.equals("PUBLIC KEY") && pub == null) {
                pub = b.der;
            }
        }
        if (priv == null || pub == null) {
            throw new IOException(file + ": a signing key file needs a PRIVATE KEY and a PUBLIC KEY PEM block (as "
                    + "'statecast keygen' writes)");
        }
        try {
            KeyFactory f = KeyFactory.getInstance(ALGORITHM);
            PrivateKey privateKey = f.generatePrivate(new PKCS8EncodedKeySpec(priv));
            PublicKey publicKey = f.generatePublic(new X509EncodedKeySpec(pub));
            byte[] probe = "statecast key pair check".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(ALGORITHM);
            s.initSign(privateKey);
            s.update(probe);
            byte[] sig = s.sign();
            s.initVerify(publicKey);
            s.update(probe);
            if (!s.verify(sig)) {
                throw new IOException(file + ": its PUBLIC KEY does not belong to its PRIVATE KEY");
            }
            return new SigningKey(keyId(publicKey), privateKey, publicKey);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException(file + ": not an " + ALGORITHM + " key pair: " + e.getMessage(), e);
        }
    }

    /**
     * Reads the {@code PUBLIC KEY} blocks of a public key file (one or more Ed25519 keys).
     *
     * @throws IOException naming the file and what is wrong with it
     */
    public static List<PublicKey> readPublic(Path file) throws IOException {
        List<PublicKey> keys = new ArrayList<>();
        for (Block b : blocks(file)) {
            if (!b.type.equals("PUBLIC KEY")) {
                if (b.type.contains("PRIVATE")) {
                    throw new IOException(file + ": holds a private key; give the public key file (.pub)");
                }
                continue;
            }
            try {
                keys.add(KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(b.der)));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new IOException(file + ": not an " + ALGORITHM + " public key: " + e.getMessage(), e);
            }
        }
        if (keys.isEmpty()) {
            throw new IOException(file + ": no PUBLIC KEY PEM block");
        }
        return keys;
    }

    private record Block(String type, byte[] der) {
    }

    private static List<Block> blocks(Path file) throws IOException {
        byte[] bytes;
        try (var in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_KEY_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_KEY_FILE_BYTES) {
            throw new IOException(file + ": larger than " + MAX_KEY_FILE_BYTES + " bytes; not a key file");
        }
        String text = new String(bytes, StandardCharsets.US_ASCII);
        List<Block> out = new ArrayList<>();
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": the " + m.group(1) + " block is not valid Base64");
            }
        }
        if (out.isEmpty()) {
            throw new IOException(file + ": no PEM block (-----BEGIN ...-----)");
        }
        return out;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Never shows the private key. */
    @Override
    public String toString() {
        return "SigningKey[" + ALGORITHM + " " + keyId + "]";
    }
}
