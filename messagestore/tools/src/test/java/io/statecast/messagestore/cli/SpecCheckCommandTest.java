package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.resource;
import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code spec check}: text with traces, exit status by severity, options, and the JSON document. */
class SpecCheckCommandTest {

    @Test
    void shouldPrintTheFindingWithItsTraceAndExitOneOnAnError() throws Exception {
        String f = resource("specs/loop-sender.scxml");
        CommandRun r = spec("check", f);
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains(f + ":32:7: error: send storm: in loop the expiry of timer 1 alone repeats for "
                + "ever"), r.out());
        assertTrue(r.out().contains("       1. kick from parent [kick] -> loop timers [1]; calls setTimer 1\n"
                + "    cycle> 2. timer 1 expires [tick] -> loop timers [1]; calls sendControlMessage (type 7 "
                + "multicast), setTimer 1\n"), r.out());
        assertTrue(r.out().contains(f + ": depth 8, 3 peers: 2 states, 7 transitions (3 message inputs), state space "
                + "exhausted"), r.out());
        assertTrue(r.out().strip().endsWith("2 errors, 0 warnings"), r.out());
    }

    @Test
    void shouldPassWarningsUnlessAskedNotTo() throws Exception {
        String f = resource("check/never-handled.scxml");
        assertEquals(0, spec("check", f).exit());
        CommandRun strict = spec("check", "-W", f);
        assertEquals(1, strict.exit(), strict.out());
        assertTrue(strict.out().contains("0 errors, 2 warnings"), strict.out());
    }

    @Test
    void shouldFailASpecThatDoesNotLoadAndRefuseUnreadableFilesAndBadBounds() throws Exception {
        assertEquals(1, spec("check", resource("invalid/cond-attribute.scxml")).exit());
        assertEquals(2, spec("check", "/nonexistent/spec.scxml").exit());
        assertEquals(2, spec("check", "--time-limit", "0", resource("specs/loop-sender.scxml")).exit());
        CommandRun bad = spec("check", "--depth", "0", resource("specs/loop-sender.scxml"));
        assertEquals(2, bad.exit(), bad.out());
        assertTrue(bad.out().contains("depth must be 1..64"), bad.out());
    }

    @Test
    void shouldPrintOneJsonDocumentForTools() throws Exception {
        String f = resource("specs/loop-sender.scxml");
        CommandRun r = spec("check", "--json", "--peers", "2", f);
        assertEquals(1, r.exit(), r.out());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(1, doc.get("exitStatus").asInt());
        JsonNode report = doc.get("reports").get(0);
        assertEquals(f, report.get("file").asText());
        assertEquals(2, report.get("peers").asInt());
        assertEquals(8, report.get("depth").asInt());
        JsonNode storm = report.get("findings").get(1);
        assertEquals("send-storm", storm.get("rule").asText());
        assertEquals(32, storm.get("line").asInt());
        JsonNode trace = storm.get("trace");
        assertEquals(2, trace.get("cycleStart").asInt());
        assertEquals("timer 1 expires", trace.get("steps").get(2).get("input").asText());
        assertEquals("loop", trace.get("steps").get(2).get("states").asText());
        assertEquals(1, trace.get("steps").get(2).get("timers").get(0).asInt());
        assertEquals(2, report.get("stats").get("states").asInt());
        assertTrue(report.get("stats").get("complete").asBoolean());
        assertEquals(2, report.get("summary").get("errors").asInt());
    }
}
