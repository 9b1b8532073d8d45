package io.statecast.it.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's block of docs/benchmarks.md: replaced whole, everything around it kept. */
class DocsSectionTest {

    @TempDir
    Path dir;

    private static final String DOC = "# Benchmarks\n\nintro\n\n" + DocsSection.BEGIN + "\n\nold table\n\n" + DocsSection.END
            + "\n\n### Curated\n\nkept as is\n";

    @Test
    void theBlockShouldBeReplacedAndTheRestKept() throws Exception {
        Path f = dir.resolve("benchmarks.md");
        Files.writeString(f, DOC);
        DocsSection.update(f, "new table\n");
        String after = Files.readString(f);
        assertEquals("# Benchmarks\n\nintro\n\n" + DocsSection.BEGIN + "\n\nnew table\n\n" + DocsSection.END
                + "\n\n### Curated\n\nkept as is\n", after);
        DocsSection.update(f, "newer table");
        assertTrue(Files.readString(f).contains(DocsSection.BEGIN + "\n\nnewer table\n\n" + DocsSection.END), "a second update replaces the first");
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }
    }

    @Test
    void missingRepeatedOrSwappedMarkersShouldBeRefusedNamingTheFile() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> DocsSection.splice("# Benchmarks\n", "t", "docs/benchmarks.md"));
        assertTrue(none.getMessage().startsWith("docs/benchmarks.md has no line " + DocsSection.BEGIN), none.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> DocsSection.splice(DOC + DocsSection.END + "\n", "t", "b.md"));
        assertTrue(twice.getMessage().contains("more than once"), twice.getMessage());
        IllegalArgumentException swapped = assertThrows(IllegalArgumentException.class,
                () -> DocsSection.splice(DocsSection.END + "\n" + DocsSection.BEGIN + "\n", "t", "b.md"));
        assertTrue(swapped.getMessage().contains("before"), swapped.getMessage());
    }

    @Test
    void headingsShouldSinkOneLevel() {
        assertEquals("### Testbed results\n\n#### Every run\n| a |\n", DocsSection.demoted("## Testbed results\n\n### Every run\n| a |\n"));
        assertEquals("not #a heading\n", DocsSection.demoted("not #a heading\n"));
    }
}
