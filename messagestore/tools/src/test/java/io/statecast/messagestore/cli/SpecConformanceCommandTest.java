package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecConformanceCommandTest {

    private static final String HEAD = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"xpath\">";

    @Test
    void shouldPrintEachTestAndTheCountsLastAndFailWhenATestFails(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("test1.scxml"), HEAD + "<state id='s'><transition target='pass'/></state>"
                + "<final id='pass'/><final id='fail'/></scxml>");
        Files.writeString(dir.resolve("test2.scxml"), HEAD + "<state id='s'><transition target='fail'/></state>"
                + "<final id='pass'/><final id='fail'/></scxml>");
        Files.writeString(dir.resolve("test3.scxml"), HEAD + "<state id='s'><invoke src='x'/></state></scxml>");
        Path json = dir.resolve("out.json");
        CommandRun r = spec("conformance", dir.toString(), "--json", json.toString());
        String[] lines = r.out().strip().split("\n");
        assertEquals(1, r.exit(), r.out());
        assertEquals("test1 passed", lines[0]);
        assertTrue(lines[1].startsWith("test2 failed (ended in 'fail'"), lines[1]);
        assertEquals("test3 excluded (needs <invoke>)", lines[2]);
        assertEquals("1 passed, 1 failed, 1 excluded", lines[lines.length - 1]);
        String report = Files.readString(json);
        assertTrue(report.contains("\"failed\" : 1") && report.contains("\"test\" : \"test3\""), report);
    }

    @Test
    void shouldRefuseADirectoryThatDoesNotExistAsBadInput(@TempDir Path dir) {
        CommandRun r = spec("conformance", dir.resolve("missing").toString());
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("missing: not a directory"), r.out());
    }
}
