package io.statecast.specserver;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
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
 * A fast, shallow {@link SpecCheck}: the document must be well-formed XML without a DTD, its root
 * must be {@code <scxml>}, and its datamodel must carry one service section in the format of
 * {@code docs/spec-format.md}
 *
 * <pre>{@code
 * <data name="service">          (or id="service")
 *   <ServiceName>h2hack</ServiceName>   (1..64 characters)
 *   <ServiceID>1</ServiceID>            (decimal integer in [0, 2^31-1])
 *   <Scope>message</Scope>              (optional: message | flow; default message)
 *   ...                                 (other children are not checked)
 * </data>
 * }</pre>
 *
 * <p>It checks nothing else: not the schema, not states, events or actions. Production uses
 * {@link MessageStoreSpecCheck}, the full validator; this test double serves the server's own tests,
 * which need the metadata without loading the whole spec toolchain.
 *
 * <p>Thread-safe: each call uses its own parser. Parsing is hardened against hostile input: DOCTYPE declarations are refused (so no entity
 * expansion and no external entities), external DTD and schema access is disabled, and only the
 * metadata text is accumulated, capped at {@value #MAX_FIELD_CHARS} characters per field.
 */
final class BasicSpecCheck implements SpecCheck {

    /** The SCXML namespace; a root {@code scxml} without a namespace is accepted as well. */
    public static final String SCXML_NS = "http://www.w3.org/2005/07/scxml";

    /** Longest accepted service name, in characters (the schema's limit). */
    public static final int MAX_NAME_CHARS = 64;

    /** Longest text accumulated for one metadata field; longer text is reported, not kept. */
    static final int MAX_FIELD_CHARS = 1024;

    private final SAXParserFactory factory;

    /** Creates the check; the parser factory is configured once and shared. */
    public BasicSpecCheck() {
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(true);
            f.setValidating(false);
            f.setXIncludeAware(false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            this.factory = f;
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the JDK XML parser does not support the hardening features", e);
        }
    }

    @Override
    public Validated check(byte[] document) {
        MetadataHandler handler = new MetadataHandler();
        try {
            SAXParser parser;
            synchronized (factory) { // a factory is not guaranteed thread-safe; the parser is ours alone
                parser = factory.newSAXParser();
            }
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            parser.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            parser.parse(new InputSource(new ByteArrayInputStream(document)), handler);
        } catch (SAXParseException e) {
            return new Validated.Invalid(List.of(new SpecProblem(
                    Math.max(0, e.getLineNumber()), Math.max(0, e.getColumnNumber()), "not well-formed XML: " + e.getMessage())));
        } catch (SAXException | IOException e) {
            return new Validated.Invalid(List.of(SpecProblem.unlocated("cannot parse document: " + e.getMessage())));
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("cannot create an XML parser", e);
        }
        return handler.result();
    }

    /** Collects the service-metadata fields and the problems, with positions from the locator. */
    private static final class MetadataHandler extends DefaultHandler {
        private final List<SpecProblem> problems = new ArrayList<>();
        private Locator locator;
        private int depth;
        private boolean sawRoot;
        private int serviceSections;
        private int serviceSectionDepth = -1;
        private String field;
        private final StringBuilder text = new StringBuilder();
        private boolean textTruncated;
        private int fieldLine;
        private int fieldColumn;
        private String name;
        private String scope;
        private Integer serviceId;
        private int sectionLine;
        private int sectionColumn;

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attributes) {
            depth++;
            if (depth == 1) {
                sawRoot = true;
                if (!"scxml".equals(localName) || !(uri.isEmpty() || SCXML_NS.equals(uri))) {
                    problem("root element is <" + qName + ">, expected <scxml> in namespace " + SCXML_NS);
                }
                return;
            }
            if ("data".equals(localName) && serviceSectionDepth < 0 && isServiceSection(attributes)) {
                serviceSections++;
                if (serviceSections == 1) {
                    serviceSectionDepth = depth;
                    sectionLine = line();
                    sectionColumn = column();
                } else {
                    problem("more than one service section <data name=\"service\">");
                }
                return;
            }
            if (serviceSectionDepth > 0 && depth == serviceSectionDepth + 1) {
                if (localName.equals("ServiceName") || localName.equals("ServiceID") || localName.equals("Scope")) {
                    field = localName;
                    text.setLength(0);
                    textTruncated = false;
                    fieldLine = line();
                    fieldColumn = column();
                }
            }
        }

        private static boolean isServiceSection(Attributes attributes) {
            return "service".equals(attributes.getValue("", "id")) || "service".equals(attributes.getValue("", "name"));
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (field == null) {
                return;
            }
            int room = MAX_FIELD_CHARS - text.length();
            if (length > room) {
                textTruncated = true;
            }
            text.append(ch, start, Math.min(room, length));
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            if (field != null && depth == serviceSectionDepth + 1) {
                finishField();
                field = null;
            } else if (depth == serviceSectionDepth) {
                serviceSectionDepth = -2; // seen and closed: later sections are duplicates
            }
            depth--;
        }

        private void finishField() {
            String value = text.toString().strip();
            if (textTruncated) {
                problemAt(fieldLine, fieldColumn, "<" + field + "> is longer than " + MAX_FIELD_CHARS + " characters");
                return;
            }
            switch (field) {
                case "ServiceName" -> {
                    if (value.isEmpty()) {
                        problemAt(fieldLine, fieldColumn, "<ServiceName> is empty");
                    } else if (value.length() > MAX_NAME_CHARS) {
                        problemAt(fieldLine, fieldColumn, "<ServiceName> has " + value.length() + " characters > " + MAX_NAME_CHARS);
                    } else {
                        name = value;
                    }
                }
                case "ServiceID" -> {
                    int id = -1;
                    try {
                        id = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        // reported below
                    }
                    if (id < 0 || value.startsWith("+")) {
                        problemAt(fieldLine, fieldColumn, "<ServiceID> '" + value + "' is not a decimal integer in [0, 2147483647]");
                    } else {
                        serviceId = id;
                    }
                }
                case "Scope" -> {
                    if (value.equals("message") || value.equals("flow")) {
                        scope = value;
                    } else {
                        problemAt(fieldLine, fieldColumn, "<Scope> '" + value + "' is not one of message, flow");
                    }
                }
                default -> throw new IllegalStateException("unexpected field " + field);
            }
        }

        Validated result() {
            if (sawRoot && serviceSections == 0) {
                problem0("no service section <data name=\"service\"> in the datamodel");
            } else if (serviceSections > 0) {
                if (serviceId == null && problems.stream().noneMatch(p -> p.message().contains("<ServiceID>"))) {
                    problemAt(sectionLine, sectionColumn, "service section has no <ServiceID>");
                }
                if (name == null && problems.stream().noneMatch(p -> p.message().contains("<ServiceName>"))) {
                    problemAt(sectionLine, sectionColumn, "service section has no <ServiceName>");
                }
            }
            if (!problems.isEmpty()) {
                return new Validated.Invalid(problems);
            }
            return new Validated.Valid(new SpecMetadata(serviceId, name, scope == null ? "message" : scope));
        }

        private int line() {
            return locator == null ? 0 : Math.max(0, locator.getLineNumber());
        }

        private int column() {
            return locator == null ? 0 : Math.max(0, locator.getColumnNumber());
        }

        private void problem(String message) {
            problemAt(line(), column(), message);
        }

        private void problem0(String message) {
            problems.add(SpecProblem.unlocated(message));
        }

        private void problemAt(int line, int column, String message) {
            problems.add(new SpecProblem(line, column, message));
        }
    }
}
