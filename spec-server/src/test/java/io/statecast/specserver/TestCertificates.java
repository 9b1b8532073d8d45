package io.statecast.specserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TLS identities made at test time with the JDK's {@code keytool} (an EC P-256 key and a
 * self-signed certificate for 127.0.0.1 and localhost, valid for two days), written as the PEM
 * files the spec server takes. Nothing is committed.
 */
final class TestCertificates {

    /** A certificate file and its private key file. */
    record Identity(Path certificate, Path privateKey) {
        SpecServerConfig.Tls tls() {
            return new SpecServerConfig.Tls(certificate, privateKey);
        }
    }

    private TestCertificates() {
    }

    static Identity create(Path dir, String name) throws IOException, InterruptedException, GeneralSecurityException {
        Files.createDirectories(dir);
        Path store = dir.resolve(name + ".p12");
        String pass = "test-only-" + name;
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", name, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", pass,
                "-keypass", pass)).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".keytool.log").toFile())
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool did not finish in 60 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException("keytool failed: " + Files.readString(dir.resolve(name + ".keytool.log")));
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, pass.toCharArray());
        }
        Key key = ks.getKey(name, pass.toCharArray());
        Path cert = Files.writeString(dir.resolve(name + ".crt.pem"), pem("CERTIFICATE", ks.getCertificate(name).getEncoded()),
                StandardCharsets.US_ASCII);
        Path keyFile = Files.writeString(dir.resolve(name + ".key.pem"), pem("PRIVATE KEY", key.getEncoded()),
                StandardCharsets.US_ASCII);
        return new Identity(cert, keyFile);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
