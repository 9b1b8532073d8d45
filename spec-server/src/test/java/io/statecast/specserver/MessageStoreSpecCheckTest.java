package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter over the MessageStore loader: what nodes can load is what the server accepts. */
class MessageStoreSpecCheckTest {

    private static MessageStoreSpecCheck check;

    @BeforeAll
    static void open() {
        check = new MessageStoreSpecCheck(SpecServerLimits.DEFAULT_MAX_SPEC_BYTES);
    }

    @AfterAll
    static void close() {
        check.close();
    }

    @Test
    void shouldReportTheMetadataOfAValidSpec() {
        SpecCheck.Validated v = check.check(TestSpecs.spec(42, "probe", "padding"));
        assertEquals(new SpecMetadata(42, "probe", "message"), assertInstanceOf(SpecCheck.Validated.Valid.class, v).metadata());
    }

    @Test
    void shouldAgreeWithTheBasicCheckOnTheTestSpecs() {
        BasicSpecCheck basic = new BasicSpecCheck();
        for (int id : new int[] {0, 1, 77, Integer.MAX_VALUE}) {
            byte[] doc = TestSpecs.spec(id, "s" + id, "x".repeat(id % 1000));
            assertEquals(basic.check(doc), check.check(doc), "id " + id);
        }
    }

    @Test
    void shouldReportErrorsWithPositions() {
        String broken = new String(TestSpecs.spec(3, "three"), StandardCharsets.UTF_8)
                .replace("target=\"done\"", "target=\"nowhere\"");
        SpecCheck.Validated.Invalid invalid = assertInstanceOf(SpecCheck.Validated.Invalid.class,
                check.check(broken.getBytes(StandardCharsets.UTF_8)));
        assertFalse(invalid.problems().isEmpty());
        assertTrue(invalid.problems().stream().anyMatch(p -> p.line() > 0 && p.message().contains("nowhere")), invalid.problems().toString());
    }

    @Test
    void shouldGuardAServerEndToEnd(@TempDir Path dir) throws Exception {
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), check)) {
            SpecServerClient client = new SpecServerClient(server.baseUri(), Optional.of(Http.TOKEN), SpecServerClient.Options.DEFAULTS);
            assertTrue(client.put(9, TestSpecs.spec(9, "nine"), Optional.empty()).created());
            String broken = new String(TestSpecs.spec(10, "ten"), StandardCharsets.UTF_8).replace("<DeliveryMode>unicast", "<DeliveryMode>anycast");
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> client.put(10, broken.getBytes(StandardCharsets.UTF_8), Optional.empty()));
            assertEquals(400, e.status());
            assertTrue(e.problems().stream().anyMatch(p -> p.line() == 8 && p.message().contains("anycast")), e.problems().toString());
            assertEquals(List.of(9), client.list().stream().map(ServiceInfo::serviceId).toList());
        }
    }

    @Test
    void shouldRefuseHostileDocumentsAsProblemsNotExceptions() {
        for (String hostile : new String[] {
            "",
            "not xml",
            "<?xml version=\"1.0\"?><!DOCTYPE scxml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><scxml>&x;</scxml>",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">" + "<state id=\"a\">".repeat(500) + "</scxml>",
        }) {
            SpecCheck.Validated v = check.check(hostile.getBytes(StandardCharsets.UTF_8));
            assertInstanceOf(SpecCheck.Validated.Invalid.class, v, hostile.length() > 60 ? hostile.substring(0, 60) : hostile);
        }
    }
}
