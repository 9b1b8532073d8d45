package io.statecast.messagestore.spec;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.ValidatorHandler;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.AttributesImpl;

/**
 * The XSDs of the {@code schemas} module, loaded from the classpath with a SchemaFactory that
 * may not fetch anything, and a way to validate positioned DOM subtrees against them: the
 * subtree is replayed as SAX events into a {@link ValidatorHandler} whose locator reports each
 * element's position in the spec, so schema errors name spec lines. Immutable and thread-safe.
 */
final class SpecSchemas {

    static final String SECTIONS_XSD = "io/statecast/schemas/spec-sections.xsd";
    static final String ACTIONS_XSD = "io/statecast/schemas/spec-actions.xsd";

    private final Schema sections;
    private final Schema actions;

    SpecSchemas() {
        this.sections = load(SECTIONS_XSD);
        this.actions = load(ACTIONS_XSD);
    }

    private static Schema load(String resource) {
        URL url = SpecSchemas.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException(resource + " is not on the classpath (is the schemas jar missing?)");
        }
        try (InputStream in = url.openStream()) {
            SchemaFactory f = SchemaFactory.newDefaultInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return f.newSchema(new StreamSource(in, url.toString()));
        } catch (SAXException | IOException e) {
            throw new IllegalStateException("cannot load " + resource + ": " + e.getMessage(), e);
        }
    }

    /**
     * Validates the children of a {@code <data name="section">} element as the content of the
     * sections schema's global element {@code section}.
     *
     * @param failed receives every element at which a schema error was reported
     */
    void validateSection(Element data, String section, List<Problem> problems, Set<Node> failed) {
        replay(sections, data, section, problems, failed);
    }

    /** Validates one action element ({@code action:create}, {@code set} or {@code execute}). */
    void validateAction(Element action, List<Problem> problems, Set<Node> failed) {
        replay(actions, action, null, problems, failed);
    }

    private static void replay(Schema schema, Element root, String wrapper, List<Problem> problems, Set<Node> failed) {
        ValidatorHandler vh = schema.newValidatorHandler();
        MovingLocator locator = new MovingLocator();
        vh.setDocumentLocator(locator);
        vh.setErrorHandler(new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {
            }

            @Override
            public void error(SAXParseException e) {
                report(e);
            }

            @Override
            public void fatalError(SAXParseException e) {
                report(e);
            }

            private void report(SAXParseException e) {
                SourcePosition p = SourcePosition.of(locator.current);
                problems.add(Problem.error(p.line(), p.column(), "schema: " + readable(e.getMessage())));
                if (locator.current != null) {
                    failed.add(locator.current);
                }
            }
        });
        try {
            vh.startDocument();
            if (wrapper != null) {
                locator.current = root;
                vh.startElement(SpecNamespaces.SCXML, wrapper, wrapper, new AttributesImpl());
                for (Node c = root.getFirstChild(); c != null; c = c.getNextSibling()) {
                    emit(vh, c, locator);
                }
                locator.current = root;
                vh.endElement(SpecNamespaces.SCXML, wrapper, wrapper);
            } else {
                emit(vh, root, locator);
            }
            vh.endDocument();
        } catch (SAXException e) {
            SourcePosition p = SourcePosition.of(locator.current);
            problems.add(Problem.error(p.line(), p.column(), "schema: " + e.getMessage()));
        }
    }

    /** Drops Xerces' rule codes and namespace URIs, which only obscure the message. */
    static String readable(String message) {
        if (message == null) {
            return "invalid";
        }
        String m = message.replaceFirst("^cvc-[A-Za-z0-9.\\-]+: ", "");
        m = m.replaceAll("\"[^\"]*\":", "");
        m = m.replace("'{", "'").replace("}'", "'");
        return m;
    }

    private static void emit(ValidatorHandler vh, Node n, MovingLocator locator) throws SAXException {
        if (n instanceof Element e) {
            locator.current = e;
            String uri = e.getNamespaceURI() == null ? "" : e.getNamespaceURI();
            String local = e.getLocalName() == null ? e.getNodeName() : e.getLocalName();
            AttributesImpl atts = new AttributesImpl();
            NamedNodeMap map = e.getAttributes();
            for (int i = 0; i < map.getLength(); i++) {
                Attr a = (Attr) map.item(i);
                String aUri = a.getNamespaceURI() == null ? "" : a.getNamespaceURI();
                if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(aUri)) {
                    continue;
                }
                String aLocal = a.getLocalName() == null ? a.getName() : a.getLocalName();
                atts.addAttribute(aUri, aLocal, a.getName(), "CDATA", a.getValue());
            }
            vh.startElement(uri, local, e.getNodeName(), atts);
            for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
                emit(vh, c, locator);
            }
            locator.current = e;
            vh.endElement(uri, local, e.getNodeName());
        } else if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
            char[] chars = n.getNodeValue().toCharArray();
            vh.characters(chars, 0, chars.length);
        }
    }

    /** Reports the position of the element being replayed. */
    private static final class MovingLocator implements Locator {
        private Node current;

        @Override
        public String getPublicId() {
            return null;
        }

        @Override
        public String getSystemId() {
            return null;
        }

        @Override
        public int getLineNumber() {
            return SourcePosition.of(current).line();
        }

        @Override
        public int getColumnNumber() {
            return SourcePosition.of(current).column();
        }
    }
}
