package io.statecast.messagestore.deploy;

import io.statecast.messagestore.spec.SpecCanonicalForm;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecNamespaces;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Signs specs and checks their signatures. A signed spec carries, as a child of its root element,
 * <pre>{@code <sig:signature xmlns:sig="urn:statecast:signature:1" key="KEY-ID" value="BASE64"/>}</pre>
 * where {@code value} is the Ed25519 signature, by the key {@code KEY-ID}
 * ({@link SigningKey#keyId}), of the bytes {@value #CONTEXT} followed by the document's
 * {@link SpecCanonicalForm canonical form}, which leaves the signature element out. The loader
 * ignores the element, so a signed spec loads exactly like the unsigned one.
 */
public final class SpecSignatures {

    /** Prefixed to the canonical form before signing, so the signature means nothing else. */
    public static final String CONTEXT = "statecast-spec-signature-v1\n";
    private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16}");
    private static final Set<String> ATTRIBUTES = Set.of("key", "value");
    /** Ed25519 signatures are 64 bytes; their Base64 is 88 characters. */
    private static final int SIGNATURE_BYTES = 64;

    /** How a signature check ended. */
    public enum Outcome {
        /** Signed by a trusted key, and the signature matches. */
        VALID,
        /** No signature element. */
        UNSIGNED,
        /** Signed by a key that is not trusted. */
        UNTRUSTED_KEY,
        /** Signed by a trusted key, but the document is not what it signed. */
        BAD_SIGNATURE,
        /** The document or its signature element cannot be read. */
        MALFORMED
    }

    /**
     * The result of {@link #verify}.
     *
     * @param outcome how it ended
     * @param keyId   the key id the signature names, if it names one
     * @param message one line saying why (and by whom), for logs and refusals
     */
    public record Verdict(Outcome outcome, Optional<String> keyId, String message) {
        /** Whether the spec may be installed. */
        public boolean valid() {
            return outcome == Outcome.VALID;
        }
    }

    private SpecSignatures() {
    }

    /**
     * Checks the signature of {@code document} against {@code trusted}.
     *
     * @param source what to call the document in the message
     */
    public static Verdict verify(String source, byte[] document, TrustedKeys trusted, SpecLimits limits) {
        SpecCanonicalForm.Result form;
        try {
            form = SpecCanonicalForm.of(source, document, limits);
        } catch (SpecException e) {
            return new Verdict(Outcome.MALFORMED, Optional.empty(), e.getMessage());
        }
        if (form.signature().isEmpty()) {
            return new Verdict(Outcome.UNSIGNED, Optional.empty(), source + ": not signed (no <signature> element in "
                    + SpecNamespaces.SIGNATURE + " under the root)");
        }
        SpecCanonicalForm.SignatureElement el = form.signature().get();
        Map<String, String> a = el.attributes();
        if (!ATTRIBUTES.equals(a.keySet()) || el.content()) {
            return new Verdict(Outcome.MALFORMED, Optional.empty(), source + ": the signature element (line " + el.line()
                    + ") must be empty with exactly the attributes key and value, has " + a.keySet()
                    + (el.content() ? " and content" : ""));
        }
        String keyId = a.get("key");
        if (!KEY_ID.matcher(keyId).matches()) {
            return new Verdict(Outcome.MALFORMED, Optional.empty(), source + ": the signature's key id is not 16 "
                    + "lowercase hex digits");
        }
        byte[] sig;
        try {
            sig = Base64.getDecoder().decode(a.get("value"));
        } catch (IllegalArgumentException e) {
            return new Verdict(Outcome.MALFORMED, Optional.of(keyId), source + ": the signature value is not Base64");
        }
        if (sig.length != SIGNATURE_BYTES) {
            return new Verdict(Outcome.MALFORMED, Optional.of(keyId), source + ": the signature value has " + sig.length
                    + " bytes, an Ed25519 signature " + SIGNATURE_BYTES);
        }
        Optional<PublicKey> key = trusted.key(keyId);
        if (key.isEmpty()) {
            return new Verdict(Outcome.UNTRUSTED_KEY, Optional.of(keyId), source + ": signed by key " + keyId
                    + ", which is not trusted");
        }
        boolean ok;
        try {
            Signature s = Signature.getInstance(SigningKey.ALGORITHM);
            s.initVerify(key.get());
            s.update(CONTEXT.getBytes(StandardCharsets.US_ASCII));
            s.update(form.bytes());
            ok = s.verify(sig);
        } catch (GeneralSecurityException e) {
            ok = false;
        }
        return ok
                ? new Verdict(Outcome.VALID, Optional.of(keyId), source + ": signed by trusted key " + keyId)
                : new Verdict(Outcome.BAD_SIGNATURE, Optional.of(keyId), source + ": the signature by key " + keyId
                        + " does not match the document (altered after signing?)");
    }

    /**
     * Signs {@code document}: returns it with a signature element inserted as the last child of
     * its root element. The result is verified before it is returned.
     *
     * @throws SpecException when the document cannot be read, is signed already, or its root end
     *                       tag cannot be found
     */
    public static byte[] sign(String source, byte[] document, SigningKey key, SpecLimits limits) throws SpecException {
        SpecCanonicalForm.Result form = SpecCanonicalForm.of(source, document, limits);
        if (form.signature().isPresent()) {
            throw problem(source, "is signed already (line " + form.signature().get().line()
                    + "); sign the unsigned document");
        }
        String text = new String(document, StandardCharsets.UTF_8);
        int end = text.lastIndexOf("</" + form.rootName());
        if (end < 0) {
            throw problem(source, "has no end tag </" + form.rootName() + "> to put the signature before");
        }
        int lineStart = text.lastIndexOf('\n', end - 1) + 1;
        boolean ownLine = text.substring(lineStart, end).isBlank();
        String indent = "  ";
        String placeholder = "\u0000SIG\u0000";
        String element = "<sig:signature xmlns:sig=\"" + SpecNamespaces.SIGNATURE + "\" key=\"" + key.keyId()
                + "\" value=\"" + placeholder + "\"/>";
        // on a line of its own, indented as a child of the root, when the end tag has its own line
        String withElement = ownLine
                ? text.substring(0, lineStart) + indent + element + "\n" + text.substring(lineStart)
                : text.substring(0, end) + element + text.substring(end);
        byte[] unsignedForm;
        try {
            unsignedForm = SpecCanonicalForm.of(source, withElement.replace(placeholder, "")
                    .getBytes(StandardCharsets.UTF_8), limits).bytes();
        } catch (SpecException e) {
            throw problem(source, "could not place the signature before </" + form.rootName() + ">: " + e.getMessage());
        }
        byte[] sig;
        try {
            Signature s = Signature.getInstance(SigningKey.ALGORITHM);
            s.initSign(key.privateKey());
            s.update(CONTEXT.getBytes(StandardCharsets.US_ASCII));
            s.update(unsignedForm);
            sig = s.sign();
        } catch (GeneralSecurityException e) {
            throw problem(source, "signing failed: " + e.getMessage());
        }
        byte[] signed = withElement.replace(placeholder, Base64.getEncoder().encodeToString(sig))
                .getBytes(StandardCharsets.UTF_8);
        Verdict check = verify(source, signed, TrustedKeys.of(java.util.List.of(key.publicKey())), limits);
        if (!check.valid()) {
            throw problem(source, "could not place the signature before </" + form.rootName() + ">: " + check.message());
        }
        return signed;
    }

    private static SpecException problem(String source, String message) {
        return new SpecException(source, java.util.List.of(io.statecast.messagestore.spec.Problem.error(0, 0,
                "the spec " + message)));
    }
}
