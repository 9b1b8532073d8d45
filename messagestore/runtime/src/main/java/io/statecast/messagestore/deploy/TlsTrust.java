package io.statecast.messagestore.deploy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS trust a node (or a client) puts in a spec server: the certificates of a PEM file — a
 * CA's, or the server's own self-signed one — instead of the JDK's default trust store. Host names
 * are still verified against the certificate (by the JDK's HTTP client).
 */
public final class TlsTrust {

    /** Largest certificate file read. */
    public static final int MAX_FILE_BYTES = 1024 * 1024;

    private TlsTrust() {
    }

    /**
     * An {@link SSLContext} that trusts exactly the certificates in {@code pemFile}.
     *
     * @throws IOException naming the file when it cannot be read or holds no X.509 certificate
     */
    public static SSLContext trusting(Path pemFile) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(pemFile)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new IOException(pemFile + ": larger than " + MAX_FILE_BYTES + " bytes; not a certificate file");
        }
        try {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes));
            if (certs.isEmpty()) {
                throw new IOException(pemFile + ": no X.509 certificate (PEM -----BEGIN CERTIFICATE-----)");
            }
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("trusted-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException(pemFile + ": not a PEM certificate file: " + e.getMessage(), e);
        }
    }
}
