package io.statecast.messagestore.spec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The canonical form of a spec document, what a spec signature signs: the document as the
 * loader reads it, without its signature element, written as an unambiguous byte string.
 *
 * <p>The document is read with the loader's hardened parser (UTF-8, no DOCTYPE, bounded size,
 * element count and depth). Then, in document order:
 * <ul>
 *   <li>each element is {@code E} + its namespace URI + its qualified name (prefix included) + the
 *       number of its attributes + each attribute, sorted by qualified name, as namespace URI +
 *       qualified name + value (namespace declarations {@code xmlns:p="…"} count as attributes, so
 *       the prefixes queries use stay bound as signed), then its content, then {@code /};</li>
 *   <li>character data (text and CDATA, adjacent runs merged into one) is {@code T} + the text,
 *       exactly as the parser reports it (line ends normalised to LF, entities expanded, no other
 *       whitespace change);</li>
 *   <li>comments, processing instructions, the XML declaration and anything outside the root
 *       element are left out: the loader ignores them too.</li>
 * </ul>
 * Every string is written as its UTF-8 length in decimal, {@code :}, and its UTF-8 bytes, so no
 * two different documents share a form. The one {@code <signature>} element in namespace
 * {@link SpecNamespaces#SIGNATURE} that is a child of the root element is left out, with its
 * content; text on both sides of it merges. So inserting or moving the signature among the root's
 * children does not change the form, and re-indenting, changing an attribute, a prefix or any text
 * does. A second signature element there is an error; one anywhere else is an ordinary element
 * (which the loader refuses).
 */
public final class SpecCanonicalForm {

    /** Local name of the signature element. */
    public static final String SIGNATURE_ELEMENT = "signature";
    private static final String NAMESPACE_PREFIXES = "http://xml.org/sax/features/namespace-prefixes";
    private static final Pattern ENCODING = Pattern.compile("^\\s*<\\?xml[^>]*?encoding\\s*=\\s*[\"']([^\"']+)[\"']");

    /**
     * The signature element as found: its attributes by name and the line it starts on.
     *
     * @param attributes every attribute, by qualified name
     * @param line       1-based line of the end of its start tag
     * @param content    whether it has child elements or non-whitespace text (a valid one has neither)
     */
    public record SignatureElement(java.util.Map<String, String> attributes, int line, boolean content) {
        /** Copies the map. */
        public SignatureElement {
            attributes = java.util.Map.copyOf(attributes);
        }
    }

    /**
     * A document's canonical form.
     *
     * @param bytes        the form
     * @param rootName     the qualified name of the root element
     * @param signature    the signature element, if the document has one
     */
    public record Result(byte[] bytes, String rootName, Optional<SignatureElement> signature) {
    }

    private SpecCanonicalForm() {
    }

    /**
     * Computes the canonical form of {@code document}.
     *
     * @param source what to call the document in errors
     * @throws SpecException when it is not well-formed XML the loader would read, exceeds the
     *                       limits, or has two signature elements
     */
    public static Result of(String source, byte[] document, SpecLimits limits) throws SpecException {
        if (document.length > limits.maxBytes()) {
            throw new SpecException(source, List.of(Problem.error(0, 0, "spec is larger than the limit of "
                    + limits.maxBytes() + " bytes")));
        }
        String head = new String(document, 0, Math.min(document.length, 256), StandardCharsets.ISO_8859_1);
        Matcher m = ENCODING.matcher(head);
        if (m.find()) {
            String enc = m.group(1).toUpperCase(Locale.ROOT);
            if (!enc.equals("UTF-8") && !enc.equals("UTF8") && !enc.equals("US-ASCII")) {
                throw new SpecException(source, List.of(Problem.error(1, 0, "specs must be UTF-8, this one declares "
                        + "encoding " + m.group(1))));
            }
        }
        String text = new String(document, StandardCharsets.UTF_8);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        Writer w = new Writer(limits, Deadline.after(limits.loadTimeout(), limits.loadWallBackstop(), () -> 0L));
        try {
            SAXParserFactory f = SpecParser.hardenedFactory();
            f.setFeature(NAMESPACE_PREFIXES, true);
            SAXParser parser = f.newSAXParser();
            parser.getXMLReader().setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entities are not allowed (" + systemId + ")");
            });
            parser.parse(new InputSource(new StringReader(text)), w);
        } catch (SAXParseException e) {
            throw new SpecException(source, List.of(Problem.error(e.getLineNumber(), e.getColumnNumber(),
                    "malformed XML: " + e.getMessage())));
        } catch (SAXException e) {
            throw new SpecException(source, List.of(Problem.error(w.line(), 0, e.getMessage())));
        } catch (ParserConfigurationException | IOException e) {
            throw new SpecException(source, List.of(Problem.error(0, 0, "spec cannot be read: " + e.getMessage())));
        }
        return new Result(w.out.toByteArray(), w.rootName, Optional.ofNullable(w.signature));
    }

    /** Writes the form from SAX events. */
    private static final class Writer extends DefaultHandler {
        private final SpecLimits limits;
        private final Deadline deadline;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final StringBuilder text = new StringBuilder();
        private Locator locator;
        private int depth;
        private int elements;
        /** Depth inside the signature element (0: outside). */
        private int inSignature;
        private String rootName;
        private SignatureElement signature;
        private boolean signatureContent;
        private java.util.Map<String, String> signatureAttributes;
        private int signatureLine;

        Writer(SpecLimits limits, Deadline deadline) {
            this.limits = limits;
            this.deadline = deadline;
        }

        int line() {
            return locator == null ? 0 : locator.getLineNumber();
        }

        @Override
        public void setDocumentLocator(Locator l) {
            this.locator = l;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
            if (++elements > limits.maxElements()) {
                throw new SAXException("spec has more than " + limits.maxElements() + " elements");
            }
            if (depth >= limits.maxDepth() + 1) {
                throw new SAXException("spec nests elements more than " + limits.maxDepth() + " levels deep");
            }
            if (deadline.passed()) {
                throw new SAXException(deadline.message("reading the XML"));
            }
            depth++;
            if (inSignature > 0) {
                inSignature++;
                signatureContent = true;
                return;
            }
            if (depth == 1) {
                rootName = qName;
            }
            if (depth == 2 && SpecNamespaces.SIGNATURE.equals(uri) && SIGNATURE_ELEMENT.equals(localName)) {
                if (signatureAttributes != null) {
                    throw new SAXException("the spec has two signature elements (lines " + signatureLine + " and "
                            + line() + ")");
                }
                inSignature = 1;
                signatureContent = false;
                signatureLine = line();
                signatureAttributes = new TreeMap<>();
                for (int i = 0; i < atts.getLength(); i++) {
                    if (!atts.getQName(i).startsWith("xmlns")) {
                        signatureAttributes.put(atts.getQName(i), atts.getValue(i));
                    }
                }
                return; // text on both sides merges: no flush
            }
            flushText();
            TreeMap<String, String[]> sorted = new TreeMap<>();
            for (int i = 0; i < atts.getLength(); i++) {
                sorted.put(atts.getQName(i), new String[] {atts.getURI(i) == null ? "" : atts.getURI(i), atts.getValue(i)});
            }
            out.write('E');
            string(uri == null ? "" : uri);
            string(qName);
            string(Integer.toString(sorted.size()));
            for (var e : sorted.entrySet()) {
                string(e.getValue()[0]);
                string(e.getKey());
                string(e.getValue()[1]);
            }
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            depth--;
            if (inSignature > 0) {
                inSignature--;
                if (inSignature == 0) {
                    signature = new SignatureElement(signatureAttributes, signatureLine, signatureContent);
                }
                return;
            }
            flushText();
            out.write('/');
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            if (deadline.passed()) {
                throw new SAXException(deadline.message("reading the XML"));
            }
            if (inSignature > 0) {
                for (int i = start; i < start + length; i++) {
                    if (!Character.isWhitespace(ch[i])) {
                        signatureContent = true;
                    }
                }
                return;
            }
            if (depth > 0) {
                text.append(ch, start, length);
            }
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
            characters(ch, start, length);
        }

        private void flushText() {
            if (text.length() > 0) {
                out.write('T');
                string(text.toString());
                text.setLength(0);
            }
        }

        private void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(Integer.toString(b.length).getBytes(StandardCharsets.US_ASCII));
            out.write(':');
            out.writeBytes(b);
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    }
}
