package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.resource;
import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SpecCommandTest {

    @Test
    void shouldPassTheBlueprintSpec() throws Exception {
        CommandRun r = spec("validate", resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("1 file checked: 0 errors, 0 warnings"), r.out());
    }

    @Test
    void shouldPrintEachProblemWithFileLineAndColumnAndFail() throws Exception {
        String bad = resource("invalid/undeclared-event.scxml");
        CommandRun r = spec("validate", resource("specs/minimal.scxml"), bad);
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains(bad + ":38:5: error: transition on undeclared event 'tock'"), r.out());
        assertTrue(r.out().contains("2 files checked: 1 error"), r.out());
    }

    @Test
    void shouldRefuseAFileItCannotReadAsBadInputNamingTheCause(@TempDir Path dir) {
        for (String command : new String[] {"validate", "info", "lint", "check", "render"}) {
            CommandRun r = spec(command, "/nonexistent/spec.scxml");
            assertEquals(2, r.exit(), command + ": " + r.out());
            assertTrue(r.out().contains("/nonexistent/spec.scxml: error: no such file"), command + ": " + r.out());
            CommandRun d = spec(command, dir.toString());
            assertEquals(2, d.exit(), command + ": " + d.out());
            assertTrue(d.out().contains(dir + ": error: is a directory"), command + ": " + d.out());
        }
    }

    @Test
    void shouldFailASpecThatIsNotXmlInEveryCommand(@TempDir Path dir) throws Exception {
        Path notXml = Files.writeString(dir.resolve("notes.scxml"), "not xml at all\n");
        for (String command : new String[] {"validate", "info", "lint", "check", "render"}) {
            CommandRun r = spec(command, notXml.toString());
            assertEquals(1, r.exit(), command + ": " + r.out());
            assertTrue(r.out().contains(notXml + ":1:1: error: "), command + ": " + r.out());
        }
    }

    @Test
    void shouldPrintTheVersionAndHelpOfEverySubcommand() {
        CommandLine root = new CommandLine(new SpecCommand());
        for (String sub : root.getSubcommands().keySet()) {
            CommandRun v = spec(sub, "-V");
            assertEquals(0, v.exit(), sub);
            CommandRun h = spec(sub, "--help");
            assertEquals(0, h.exit(), sub);
            assertTrue(h.out().contains("-V, --version"), sub + ": " + h.out());
        }
    }

    @Test
    void shouldDescribeSeveralSpecsAndFailWhenOneDoesNotLoad() throws Exception {
        String good = resource("specs/blueprint-h2h.scxml");
        String bad = resource("invalid/undeclared-event.scxml");
        CommandRun r = spec("info", good, bad);
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("file:        " + good + "\nservice:     h2hack"), r.out());
        String badPart = r.out().substring(r.out().indexOf("file:        " + bad));
        assertTrue(badPart.contains(bad + ":38:5: error: transition on undeclared"), r.out());
        assertEquals(0, spec("info", good, good).exit());
    }

    @Test
    void shouldDescribeASpec() throws Exception {
        CommandRun r = spec("info", resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit(), r.out());
        for (String expected : new String[] {
            "service:     h2hack", "ServiceID:   1", "delivery:    unicast, multicast", "scope:       message",
            "states (5), initial init:", "  waitack: 6 transitions", "  payloadmessage: MessageType=128  [read by queries]",
            "  acktimeout: timer 3", "  allh2hackmessagesreceived: after h2hackmessage; reads events [h2hackmessage]",
            "primitives:  cancelTimer, sendControlMessage, sendDataMessage, setTimer, terminate, toApplication, "
                    + "updateNodeInfo",
            "  TimeoutNACK = 5000 (duration, ms): Wait this long for the payload before sending another NACK.",
        }) {
            assertTrue(r.out().contains(expected), "missing '" + expected + "' in:\n" + r.out());
        }
    }

    @Test
    void shouldNameTheStartEvent() throws Exception {
        CommandRun r = spec("info", resource("specs/deploy-ticker.scxml"));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("start:       deployed (fired in the node's own instance when deployed)"), r.out());
        assertTrue(!spec("info", resource("specs/blueprint-h2h.scxml")).out().contains("start:"), "only with <Start>");
    }

    @Test
    void shouldFailInfoOnARefusedSpec() throws Exception {
        CommandRun r = spec("info", resource("hostile/xxe-file.scxml"));
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("DOCTYPE declarations are not allowed"), r.out());
    }
}
