package io.statecast.messagestore.spec;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXNotRecognizedException;
import org.xml.sax.SAXNotSupportedException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads spec bytes with a hardened XML parser ({@link #parse}) into a DOM whose elements carry
 * their source positions: no DOCTYPE (so no DTD, no entities, no billion laughs), no external
 * access, bounded size, element count and depth, and a deadline checked as elements arrive. The
 * validator checks that DOM and the chart compiler compiles it; nothing parses the bytes again.
 */
final class SpecParser {

    private static final String DISALLOW_DOCTYPE = "http://apache.org/xml/features/disallow-doctype-decl";
    private static final String EXTERNAL_GENERAL = "http://xml.org/sax/features/external-general-entities";
    private static final String EXTERNAL_PARAMETER = "http://xml.org/sax/features/external-parameter-entities";
    private static final String LOAD_EXTERNAL_DTD = "http://apache.org/xml/features/nonvalidating/load-external-dtd";
    private static final String JDK_ENTITY_EXPANSION_LIMIT = "http://www.oracle.com/xml/jaxp/properties/entityExpansionLimit";
    private static final String JDK_MAX_ELEMENT_DEPTH = "http://www.oracle.com/xml/jaxp/properties/maxElementDepth";
    private static final Pattern ENCODING = Pattern.compile("^\\s*<\\?xml[^>]*?encoding\\s*=\\s*[\"']([^\"']+)[\"']");

    /** A spec read into a DOM with positions, plus its text for position arithmetic. */
    record Parsed(Document document, String text, int[] lineStarts) {

        /** Character offset of a 1-based (line, column), clamped into the text. */
        int offset(int line, int column) {
            if (line <= 0) {
                return 0;
            }
            int l = Math.min(line, lineStarts.length) - 1;
            return Math.min(text.length(), lineStarts[l] + Math.max(0, column - 1));
        }
    }

    private SpecParser() {
    }

    /**
     * Parses a spec into a positioned DOM.
     *
     * @return the parsed spec, or {@code null} when it cannot be read (the reason is in {@code problems})
     */
    static Parsed parse(byte[] bytes, SpecLimits limits, Deadline deadline, List<Problem> problems) {
        if (bytes.length > limits.maxBytes()) {
            problems.add(Problem.error(0, 0, "spec is larger than the limit of " + limits.maxBytes() + " bytes"));
            return null;
        }
        String head = new String(bytes, 0, Math.min(bytes.length, 256), StandardCharsets.ISO_8859_1);
        Matcher m = ENCODING.matcher(head);
        if (m.find()) {
            String enc = m.group(1).toUpperCase(Locale.ROOT);
            if (!enc.equals("UTF-8") && !enc.equals("UTF8") && !enc.equals("US-ASCII")) {
                problems.add(Problem.error(1, 0, "specs must be UTF-8, this one declares encoding " + m.group(1)));
                return null;
            }
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        int[] lineStarts = lineStarts(text);
        Document doc;
        try {
            doc = DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's DOM implementation is unavailable", e);
        }
        Parsed parsed = new Parsed(doc, text, lineStarts);
        PositionedDomBuilder builder = new PositionedDomBuilder(parsed, limits, deadline);
        try {
            SAXParser parser = hardenedFactory().newSAXParser();
            trySetProperty(parser, XMLConstants.ACCESS_EXTERNAL_DTD, "");
            trySetProperty(parser, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            trySetProperty(parser, JDK_ENTITY_EXPANSION_LIMIT, "64");
            trySetProperty(parser, JDK_MAX_ELEMENT_DEPTH, Integer.toString(limits.maxDepth() + 1));
            parser.getXMLReader().setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entities are not allowed (" + systemId + ")");
            });
            parser.parse(new InputSource(new StringReader(text)), builder);
        } catch (SAXParseException e) {
            problems.add(Problem.error(e.getLineNumber(), e.getColumnNumber(), explain(e.getMessage())));
            return null;
        } catch (LimitException e) {
            problems.add(Problem.error(builder.line(), builder.column(), e.getMessage()));
            return null;
        } catch (SAXException e) {
            problems.add(Problem.error(builder.line(), builder.column(), explain(e.getMessage())));
            return null;
        } catch (ParserConfigurationException | IOException e) {
            problems.add(Problem.error(0, 0, "spec cannot be read: " + e.getMessage()));
            return null;
        }
        return parsed;
    }

    private static String explain(String message) {
        String m = message == null ? "malformed XML" : message;
        if (m.contains("DOCTYPE") || m.contains("disallow-doctype-decl")) {
            return "DOCTYPE declarations are not allowed in specs (no DTDs, no entities): " + m;
        }
        if (m.contains("maxElementDepth") || m.contains("JAXP00010")) {
            return "spec nests elements too deeply: " + m;
        }
        return "malformed XML: " + m;
    }

    static SAXParserFactory hardenedFactory() throws ParserConfigurationException, SAXException {
        SAXParserFactory f = SAXParserFactory.newDefaultInstance();
        f.setNamespaceAware(true);
        f.setValidating(false);
        f.setXIncludeAware(false);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature(DISALLOW_DOCTYPE, true);
        f.setFeature(EXTERNAL_GENERAL, false);
        f.setFeature(EXTERNAL_PARAMETER, false);
        f.setFeature(LOAD_EXTERNAL_DTD, false);
        return f;
    }

    private static void trySetProperty(SAXParser parser, String name, Object value) {
        try {
            parser.setProperty(name, value);
        } catch (SAXNotRecognizedException | SAXNotSupportedException e) {
            // Not the JDK's parser: the features set on the factory still apply.
        }
    }

    private static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                starts.add(i + 1);
            } else if (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A bound of {@link SpecLimits} was exceeded; its message is complete as it is. */
    private static final class LimitException extends SAXException {
        private static final long serialVersionUID = 1L;

        LimitException(String message) {
            super(message);
        }
    }

    /** Builds the DOM from SAX events and records positions; enforces count, depth and deadline. */
    private static final class PositionedDomBuilder extends DefaultHandler {
        private final Parsed parsed;
        private final SpecLimits limits;
        private final Deadline deadline;
        private final Deque<Node> stack = new ArrayDeque<>();
        private Locator locator;
        private int elements;
        /** Depth inside a skipped signature element (0: not in one). */
        private int skipping;

        PositionedDomBuilder(Parsed parsed, SpecLimits limits, Deadline deadline) {
            this.parsed = parsed;
            this.limits = limits;
            this.deadline = deadline;
            stack.push(parsed.document());
        }

        int line() {
            return locator == null ? 0 : locator.getLineNumber();
        }

        int column() {
            return locator == null ? 0 : locator.getColumnNumber();
        }

        @Override
        public void setDocumentLocator(Locator l) {
            this.locator = l;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
            if (++elements > limits.maxElements()) {
                throw new LimitException("spec has more than " + limits.maxElements() + " elements");
            }
            if (stack.size() > limits.maxDepth()) {
                throw new LimitException("spec nests elements more than " + limits.maxDepth() + " levels deep");
            }
            if (deadline.passed()) {
                throw new LimitException(deadline.message("parsing the XML"));
            }
            if (skipping > 0 || (stack.size() == 2 && SpecNamespaces.SIGNATURE.equals(uri))) {
                // a signature (a child of the root) is checked by the deployment, not part of the spec
                skipping++;
                return;
            }
            Document doc = parsed.document();
            Element e = doc.createElementNS(uri.isEmpty() ? null : uri, qName);
            for (int i = 0; i < atts.getLength(); i++) {
                String aUri = atts.getURI(i);
                e.setAttributeNS(aUri == null || aUri.isEmpty() ? null : aUri, atts.getQName(i), atts.getValue(i));
            }
            SourcePosition end = new SourcePosition(line(), column());
            e.setUserData(SourcePosition.CONTENT_KEY, end, null);
            e.setUserData(SourcePosition.START_KEY, startOfTag(end), null);
            stack.peek().appendChild(e);
            stack.push(e);
        }

        /** The locator reports the end of the start tag; the '<' is the last one before it. */
        private SourcePosition startOfTag(SourcePosition end) {
            if (end.line() <= 0) {
                return end;
            }
            String text = parsed.text();
            int off = parsed.offset(end.line(), end.column()) - 1;
            int lt = text.lastIndexOf('<', Math.max(0, off));
            if (lt < 0) {
                return end;
            }
            int[] starts = parsed.lineStarts();
            int idx = java.util.Arrays.binarySearch(starts, lt);
            int lineIdx = idx >= 0 ? idx : -idx - 2;
            return new SourcePosition(lineIdx + 1, lt - starts[lineIdx] + 1);
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            if (skipping > 0) {
                skipping--;
                return;
            }
            stack.pop();
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            if (deadline.passed()) {
                throw new LimitException(deadline.message("parsing the XML"));
            }
            Node parent = stack.peek();
            if (skipping == 0 && parent instanceof Element) {
                parent.appendChild(parsed.document().createTextNode(new String(ch, start, length)));
            }
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
