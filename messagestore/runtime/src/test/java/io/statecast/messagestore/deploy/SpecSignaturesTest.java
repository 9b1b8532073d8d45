package io.statecast.messagestore.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecSignaturesTest {

    private static final SpecLimits L = SpecLimits.DEFAULTS;
    private static final SigningKey KEY = SigningKey.generate();
    private static final TrustedKeys TRUST = TrustedKeys.of(List.of(KEY.publicKey()));

    static byte[] minimal() throws Exception {
        try (InputStream in = SpecSignaturesTest.class.getClassLoader().getResourceAsStream("specs/minimal.scxml")) {
            return in.readAllBytes();
        }
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static SpecSignatures.Outcome verify(String doc) {
        return SpecSignatures.verify("t", doc.getBytes(StandardCharsets.UTF_8), TRUST, L).outcome();
    }

    @Test
    void aSignedSpecVerifiesAndLoadsAsTheUnsignedOne() throws Exception {
        byte[] signed = SpecSignatures.sign("minimal", minimal(), KEY, L);
        String s = text(signed);
        assertTrue(s.contains("  <sig:signature xmlns:sig=\"urn:statecast:signature:1\" key=\"" + KEY.keyId() + "\""), s);
        assertTrue(s.endsWith("\"/>\n</scxml>\n"), s);
        SpecSignatures.Verdict v = SpecSignatures.verify("t", signed, TRUST, L);
        assertEquals(SpecSignatures.Outcome.VALID, v.outcome(), v.message());
        assertEquals(KEY.keyId(), v.keyId().orElseThrow());
        try (SpecLoader loader = new SpecLoader()) {
            ServiceSpec a = loader.load(minimal(), "unsigned");
            ServiceSpec b = loader.load(signed, "signed");
            assertEquals(a.service(), b.service());
        }
    }

    @Test
    void anyChangeBreaksTheSignatureButMovingItAmongTheRootsChildrenDoesNot() throws Exception {
        String s = text(SpecSignatures.sign("minimal", minimal(), KEY, L));
        assertEquals(SpecSignatures.Outcome.BAD_SIGNATURE, verify(s.replace("default=\"100\"", "default=\"101\"")));
        assertEquals(SpecSignatures.Outcome.BAD_SIGNATURE, verify(s.replace("ge 1", "ge 2")));
        assertEquals(SpecSignatures.Outcome.BAD_SIGNATURE, verify(s.replace("<state id=\"busy\">",
                "<state id=\"busy\" >\n")));
        assertEquals(SpecSignatures.Outcome.BAD_SIGNATURE, verify(s.replace("xmlns:action=\"http://my.custom-actions.domain/action\"",
                "xmlns:action=\"urn:other\"")));
        // the signature element elsewhere among the root's children: the same document
        int at = s.indexOf("<sig:signature");
        String el = s.substring(at, s.indexOf("/>", at) + 2);
        String moved = s.replace(el, "").replace("<datamodel>", el + "<datamodel>");
        assertEquals(SpecSignatures.Outcome.VALID, verify(moved));
        assertEquals(SpecSignatures.Outcome.BAD_SIGNATURE, verify(s.replace(el, "").replace("  <datamodel>",
                el + "\n  <datamodel>")), "with whitespace of its own it adds text to the root");
        // comments are not part of what is loaded, nor of what is signed
        assertEquals(SpecSignatures.Outcome.VALID, verify(s.replace("<state id=\"idle\">", "<!-- x --><state id=\"idle\">")));
    }

    @Test
    void refusesUnsignedUntrustedAndMalformed() throws Exception {
        String s = text(SpecSignatures.sign("minimal", minimal(), KEY, L));
        assertEquals(SpecSignatures.Outcome.UNSIGNED, verify(text(minimal())));
        TrustedKeys other = TrustedKeys.of(List.of(SigningKey.generate().publicKey()));
        SpecSignatures.Verdict v = SpecSignatures.verify("t", s.getBytes(StandardCharsets.UTF_8), other, L);
        assertEquals(SpecSignatures.Outcome.UNTRUSTED_KEY, v.outcome());
        assertTrue(v.message().contains("signed by key " + KEY.keyId() + ", which is not trusted"), v.message());
        assertEquals(SpecSignatures.Outcome.MALFORMED, verify(s.replaceFirst("value=\"[A-Za-z0-9+/=]{88}\"", "value=\"!!\"")));
        assertEquals(SpecSignatures.Outcome.MALFORMED, verify(s.replace("/>\n</scxml>", ">x</sig:signature>\n</scxml>")));
        int at = s.indexOf("  <sig:signature");
        String el = s.substring(at, s.indexOf("/>", at) + 3);
        assertEquals(SpecSignatures.Outcome.MALFORMED, verify(s.replace("</scxml>", el + "</scxml>")), "two signatures");
        assertEquals(SpecSignatures.Outcome.MALFORMED, verify(s.replace("</scxml>", "")));
        // a signature element that is not a child of the root is an ordinary element: the loader refuses it
        String nested = text(minimal()).replace("<state id=\"busy\">", "<state id=\"busy\">" + el);
        assertEquals(SpecSignatures.Outcome.UNSIGNED, verify(nested));
        try (SpecLoader loader = new SpecLoader()) {
            assertThrows(SpecException.class, () -> loader.load(nested.getBytes(StandardCharsets.UTF_8), "nested"));
        }
        SpecException e = assertThrows(SpecException.class, () -> SpecSignatures.sign("t", s.getBytes(StandardCharsets.UTF_8), KEY, L));
        assertTrue(e.getMessage().contains("signed already"), e.getMessage());
    }

    @Test
    void keyFilesRoundTripAndAreNeverOverwritten(@TempDir Path dir) throws Exception {
        SigningKey k = SigningKey.generate();
        Path prefix = dir.resolve("pub1");
        k.write(prefix);
        Path keyFile = dir.resolve("pub1.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        assertTrue(Files.readString(keyFile).startsWith("-----BEGIN PRIVATE KEY-----\n"));
        SigningKey back = SigningKey.read(keyFile);
        assertEquals(k.keyId(), back.keyId());
        assertEquals(List.of(k.publicKey()), SigningKey.readPublic(dir.resolve("pub1.pub")));
        byte[] before = Files.readAllBytes(keyFile);
        assertThrows(FileAlreadyExistsException.class, () -> SigningKey.generate().write(prefix));
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(keyFile)));
        // a public key file is not a signing key, a private key is not a trusted key
        assertThrows(java.io.IOException.class, () -> SigningKey.read(dir.resolve("pub1.pub")));
        assertThrows(java.io.IOException.class, () -> TrustedKeys.read(List.of(keyFile)));
        Path garbage = Files.writeString(dir.resolve("g.pub"), "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
        assertThrows(java.io.IOException.class, () -> TrustedKeys.read(List.of(garbage)));
        assertFalse(TrustedKeys.read(List.of(dir.resolve("pub1.pub"))).key(k.keyId()).isEmpty());
    }
}
