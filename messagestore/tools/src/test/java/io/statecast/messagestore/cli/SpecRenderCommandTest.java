package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.resource;
import static io.statecast.messagestore.cli.CommandRun.specApart;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spec render}: formats by option or extension, output to a file or standard output, exit status. */
class SpecRenderCommandTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteSvgToStandardOutputByDefault() throws Exception {
        CommandRun r = specApart("render", resource("specs/blueprint-h2h.scxml"));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "), r.out());
        assertTrue(r.out().contains(">waitack</text>"));
    }

    @Test
    void shouldTakeTheFormatFromTheOutputFilesExtension() throws Exception {
        String spec = resource("specs/blueprint-h2h.scxml");
        Path png = dir.resolve("h2h.png");
        assertEquals(0, specApart("render", spec, "-o", png.toString()).exit());
        assertTrue(ImageIO.read(png.toFile()).getWidth() > 400);
        Path mmd = dir.resolve("h2h.mmd");
        assertEquals(0, specApart("render", spec, "-o", mmd.toString()).exit());
        assertTrue(Files.readString(mmd, StandardCharsets.UTF_8).contains("stateDiagram-v2"));
        Path dot = dir.resolve("h2h.txt");
        assertEquals(0, specApart("render", spec, "--format", "dot", "-o", dot.toString()).exit());
        assertTrue(Files.readString(dot, StandardCharsets.UTF_8).startsWith("digraph "));
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void shouldRefuseBadArgumentsWithAUsageError() throws Exception {
        String spec = resource("specs/blueprint-h2h.scxml");
        CommandRun png = specApart("render", spec, "--format", "png");
        assertEquals(2, png.exit());
        assertTrue(png.err().contains("png is binary: give an output file with -o"), png.err());
        CommandRun unknown = specApart("render", spec, "--format", "jpeg");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("unknown format 'jpeg' (svg, png, dot, mermaid)"), unknown.err());
        assertEquals(2, specApart("render", spec, "--scale", "9", "-o", dir.resolve("x.png").toString()).exit());
        CommandRun jpg = specApart("render", spec, "-o", dir.resolve("x.jpg").toString());
        assertEquals(2, jpg.exit());
        assertTrue(jpg.err().contains("render writes svg, png, dot and mermaid"), jpg.err());
        assertTrue(Files.notExists(dir.resolve("x.jpg")), "nothing written under a name that lies");
        assertEquals(2, specApart("render", dir.resolve("absent.scxml").toString()).exit());
    }

    @Test
    void shouldPrintTheProblemsOfASpecThatDoesNotLoad() throws Exception {
        String bad = resource("invalid/undeclared-event.scxml");
        CommandRun r = specApart("render", bad);
        assertEquals(1, r.exit());
        assertTrue(r.err().contains(bad + ":38:5: error: transition on undeclared event 'tock'"), r.err());
        assertEquals("", r.out());
    }
}
