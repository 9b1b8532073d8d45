package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution the build makes (examples/target/statecast-VERSION-dist.tar.gz) runs on its
 * own: unpacked into an empty directory, far from the checkout, its bin/statecast finds lib/ and
 * runs the demo.
 */
class DistributionTest {

    @TempDir
    Path dir;

    private static Path archive() throws IOException {
        Path target = LauncherLayout.repositoryRoot().resolve("examples/target");
        try (Stream<Path> s = Files.list(target)) {
            List<Path> found = s.filter(p -> p.getFileName().toString().matches("statecast-.*-dist\\.tar\\.gz")).toList();
            assertEquals(1, found.size(), "one distribution archive in " + target + " (built by mvn package): " + found);
            return found.get(0);
        }
    }

    private record Ran(int status, String output) {
    }

    private Ran run(Path cwd, long timeoutSeconds, String... command) throws Exception {
        Path log = Files.createTempFile(dir, "run", ".log");
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not end within " + timeoutSeconds + " s:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Ran(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunTheDemoFromTheUnpackedArchiveAlone() throws Exception {
        Path unpacked = Files.createDirectories(dir.resolve("opt"));
        Ran tar = run(unpacked, 120, "tar", "xzf", archive().toString());
        assertEquals(0, tar.status(), tar.output());
        List<Path> roots;
        try (Stream<Path> s = Files.list(unpacked)) {
            roots = s.toList();
        }
        assertEquals(1, roots.size(), "one top directory: " + roots);
        Path root = roots.get(0);
        Path launcher = root.resolve("bin/statecast");
        assertTrue(Files.isExecutable(launcher), launcher + " is executable");
        assertTrue(Files.isRegularFile(root.resolve("lib/statecast.jar")), "lib/statecast.jar");

        Ran version = run(dir, 60, launcher.toString(), "-V");
        assertEquals(0, version.status(), version.output());
        assertTrue(version.output().startsWith("statecast "), version.output());

        List<String> demo = new ArrayList<>(List.of(launcher.toString(), "demo", "--nodes", "3", "--messages", "200",
                "--json", dir.resolve("report.json").toString(), "--charts", dir.resolve("charts").toString()));
        Ran ran = run(dir, 300, demo.toArray(String[]::new));
        assertEquals(0, ran.status(), ran.output());
        assertTrue(ran.output().contains("400 of 400 deliveries"), ran.output());
    }
}
