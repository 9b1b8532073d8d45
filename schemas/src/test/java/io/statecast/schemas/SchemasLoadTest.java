package io.statecast.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;

/** Every XSD the module ships loads with a SchemaFactory that may not fetch anything. */
class SchemasLoadTest {

    private static final String LIST = "io/statecast/schemas/schemas.list";

    private static SchemaFactory hardenedFactory() throws SAXException {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return f;
    }

    private static List<String> listedSchemas() throws IOException {
        InputStream in = SchemasLoadTest.class.getClassLoader().getResourceAsStream(LIST);
        assertNotNull(in, LIST + " is on the classpath");
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    @Test
    void shouldLoadEveryListedSchemaWithoutExternalAccess() throws Exception {
        List<String> names = listedSchemas();
        assertEquals(2, names.size(), "schemas listed: " + names);
        for (String name : names) {
            URL url = getClass().getClassLoader().getResource(name);
            assertNotNull(url, name + " is on the classpath");
            try (InputStream in = url.openStream()) {
                Schema schema = hardenedFactory().newSchema(new StreamSource(in, url.toString()));
                assertNotNull(schema.newValidator(), name);
            }
        }
    }

    @Test
    void shouldAcceptABlueprintStyleEventsSectionAndRejectAnUnknownFilter() throws Exception {
        Schema schema;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("io/statecast/schemas/spec-sections.xsd")) {
            schema = hardenedFactory().newSchema(new StreamSource(in));
        }
        String ok = "<events xmlns='http://www.w3.org/2005/07/scxml'><Basic>"
                + "<Event name='payloadmessage'><Message><MessageType>-128</MessageType></Message></Event>"
                + "<Event name='acktimeout'><Timer><TimerIdentifier>3</TimerIdentifier></Timer></Event>"
                + "</Basic></events>";
        Validator v = schema.newValidator();
        v.validate(new StreamSource(new ByteArrayInputStream(ok.getBytes(StandardCharsets.UTF_8))));

        String bad = ok.replace("<MessageType>-128</MessageType>", "<Colour>red</Colour>");
        SAXException e = assertThrows(SAXException.class, () -> schema.newValidator()
                .validate(new StreamSource(new ByteArrayInputStream(bad.getBytes(StandardCharsets.UTF_8)))));
        assertTrue(e.getMessage().contains("Colour"), e.getMessage());
    }
}
