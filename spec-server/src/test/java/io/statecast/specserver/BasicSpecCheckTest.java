package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BasicSpecCheckTest {

    private final BasicSpecCheck check = new BasicSpecCheck();

    private SpecCheck.Validated.Invalid invalid(String xml) {
        return assertInstanceOf(SpecCheck.Validated.Invalid.class, check.check(xml.getBytes(StandardCharsets.UTF_8)), xml);
    }

    private static String doc(String service) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n<datamodel>\n" + service
                + "\n</datamodel>\n<state id=\"s\"/>\n</scxml>";
    }

    @Test
    void shouldExtractServiceIdNameAndScope() {
        SpecCheck.Validated v = check.check(doc("<data id=\"service\"><ServiceName> h2hack </ServiceName><ServiceID>1</ServiceID>"
                + "<DeliveryMode>unicast</DeliveryMode><Scope>flow</Scope></data>")
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(new SpecMetadata(1, "h2hack", "flow"), assertInstanceOf(SpecCheck.Validated.Valid.class, v).metadata());
    }

    @Test
    void shouldAcceptTheBlueprintsNameAttributeAndDefaultScope() {
        SpecCheck.Validated v = check.check(doc("<data name=\"service\"><ServiceID>12</ServiceID><ServiceName>x</ServiceName></data>")
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(new SpecMetadata(12, "x", "message"), assertInstanceOf(SpecCheck.Validated.Valid.class, v).metadata());
    }

    @Test
    void shouldLocateSyntaxErrors() {
        SpecCheck.Validated.Invalid i = invalid("<scxml>\n<a>\n</b>\n</scxml>");
        assertEquals(3, i.problems().get(0).line());
        assertTrue(i.problems().get(0).column() > 0);
    }

    @Test
    void shouldRefuseDoctypesSoNoEntityCanBeExpandedOrFetched(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "SECRET");
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
                + doc("<data id=\"service\"><ServiceName>&x;</ServiceName><ServiceID>1</ServiceID></data>");
        SpecCheck.Validated.Invalid i = invalid(xxe);
        assertTrue(i.problems().get(0).message().contains("DOCTYPE"), i.problems().toString());
        String bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<scxml>&b;</scxml>";
        invalid(bomb);
    }

    @Test
    void shouldNameWhatIsMissingOrWrong() {
        assertTrue(invalid("<other/>").problems().get(0).message().contains("root element"));
        assertTrue(invalid(doc("")).problems().get(0).message().contains("no service section"));
        assertTrue(invalid(doc("<data name=\"service\"><ServiceName>x</ServiceName></data>")).problems().get(0).message().contains("<ServiceID>"));
        assertTrue(invalid(doc("<data name=\"service\"><ServiceID>1</ServiceID></data>")).problems().get(0).message().contains("<ServiceName>"));
        for (String badId : new String[] {"4294967295", "-1", "+1", "x"}) {
            SpecCheck.Validated.Invalid i = invalid(doc("<data name=\"service\"><ServiceName>x</ServiceName><ServiceID>" + badId + "</ServiceID></data>"));
            assertEquals(1, i.problems().size(), i.problems().toString());
            assertTrue(i.problems().get(0).message().contains("[0, 2147483647]"), i.problems().toString());
            assertEquals(3, i.problems().get(0).line());
        }
        assertTrue(invalid(doc("<data name=\"service\"><ServiceName>x</ServiceName><ServiceID>1</ServiceID><Scope>global</Scope></data>"))
                .problems().get(0).message().contains("Scope"));
        assertTrue(invalid(doc("<data name=\"service\"><ServiceName>" + "n".repeat(65) + "</ServiceName><ServiceID>1</ServiceID></data>"))
                .problems().get(0).message().contains("characters"));
        assertTrue(invalid(doc("<data name=\"service\"><ServiceName>x</ServiceName><ServiceID>1</ServiceID></data>"
                + "<data name=\"service\"><ServiceName>y</ServiceName><ServiceID>2</ServiceID></data>")).problems().get(0).message().contains("more than one"));
        assertEquals(1, invalid("").problems().size());
    }

    @Test
    void shouldNotAccumulateUnboundedMetadataText() {
        SpecCheck.Validated.Invalid i = invalid(doc("<data name=\"service\"><ServiceName>" + "n".repeat(100_000) + "</ServiceName><ServiceID>1</ServiceID></data>"));
        assertTrue(i.problems().get(0).message().contains("longer than"), i.problems().toString());
    }
}
