package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.resource;
import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code spec lint}: output lines, exit status by severity, and the JSON document. */
class SpecLintCommandTest {

    @Test
    void shouldExitZeroOnACleanSpec() throws Exception {
        CommandRun r = spec("lint", resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit(), r.out());
        assertEquals("1 file linted: 0 errors, 0 warnings", r.out().strip());
    }

    @Test
    void shouldExitZeroOnWarningsOnlyUnlessTheyCountAsErrors() throws Exception {
        String f = resource("lint/unused-event.scxml");
        CommandRun r = spec("lint", f, resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit(), r.out());
        assertEquals(1, spec("lint", "-W", f).exit());
        assertTrue(r.out().contains(f + ":14:9: warning: message event pong is declared but no transition, composite "
                + "event, XPath or XQuery uses it [unused-event]"), r.out());
        assertTrue(r.out().contains("2 files linted: 0 errors, 1 warning"), r.out());
    }

    @Test
    void shouldExitOneOnAnyErrorAndTwoOnAFileItCannotRead() throws Exception {
        String leak = resource("lint/leaking-state.scxml");
        CommandRun r = spec("lint", resource("lint/unused-event.scxml"), leak);
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains(leak + ":26:3: error: state stuck leaks"), r.out());
        assertEquals(1, spec("lint", resource("invalid/cond-attribute.scxml")).exit());
        CommandRun missing = spec("lint", "/nonexistent/spec.scxml");
        assertEquals(2, missing.exit());
        assertTrue(missing.out().contains("/nonexistent/spec.scxml: error: no such file"), missing.out());
    }

    @Test
    void shouldPrintOneJsonDocumentForTools() throws Exception {
        String leak = resource("lint/leaking-state.scxml");
        String unused = resource("lint/unused-event.scxml");
        CommandRun r = spec("lint", "--json", unused, leak);
        assertEquals(1, r.exit(), r.out());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(Set.of("findings", "summary"), fields(doc));
        assertEquals(2, doc.get("findings").size());
        JsonNode first = doc.get("findings").get(0);
        assertEquals(Set.of("file", "line", "column", "severity", "rule", "message"), fields(first));
        assertEquals(leak, first.get("file").asText());
        assertEquals(26, first.get("line").asInt());
        assertEquals(3, first.get("column").asInt());
        assertEquals("error", first.get("severity").asText());
        assertEquals("leaking-state", first.get("rule").asText());
        assertTrue(first.get("message").asText().startsWith("state stuck leaks"));
        JsonNode summary = doc.get("summary");
        assertEquals(2, summary.get("files").asInt());
        assertEquals(1, summary.get("errors").asInt());
        assertEquals(1, summary.get("warnings").asInt());
        assertEquals(1, summary.get("exitStatus").asInt());
    }

    @Test
    void shouldPrintAnEmptyJsonFindingListForACleanSpec() throws Exception {
        CommandRun r = spec("lint", "--json", resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(0, doc.get("findings").size());
        assertEquals(0, doc.get("summary").get("exitStatus").asInt());
    }

    private static Set<String> fields(JsonNode n) {
        Set<String> out = new TreeSet<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
