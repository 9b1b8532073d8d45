package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.specserver.cli.SpecServerCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code statecast spec-server}: refusals in-process, a real run as a child JVM. */
class SpecServerCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new SpecServerCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void shouldRefuseToStartWithoutTokenOrInsecure() {
        Run r = run("--dir", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("no token") && r.err().contains("--token-file") && r.err().contains("--insecure"), r.err());
    }

    @Test
    void shouldRefuseBadTokenFilesNamingThem() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        Run r = run("--dir", dir.toString(), "--token-file", empty.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains(empty.toString()) && r.err().contains("empty"), r.err());

        Path shortToken = Files.writeString(dir.resolve("short"), "abc\n");
        Run s = run("--dir", dir.toString(), "--token-file", shortToken.toString());
        assertEquals(2, s.exit());
        assertTrue(s.err().contains("16"), s.err());

        Run missing = run("--dir", dir.toString(), "--token-file", dir.resolve("absent").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("absent"), missing.err());

        Run both = run("--dir", dir.toString(), "--token-file", shortToken.toString(), "--insecure");
        assertEquals(2, both.exit());
    }

    @Test
    void shouldRequireTheDirectory() {
        Run r = run("--insecure");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--dir"), r.err());
    }

    @Test
    void shouldServeWithATokenFileAndStopOnSigterm() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("token"), Http.TOKEN + "\n");
        Path specs = dir.resolve("specs");
        try (ChildServer child = ChildServer.start(dir.resolve("logs"), "token",
                List.of("--dir", specs.toString(), "--token-file", tokenFile.toString(), "--port", "0"))) {
            URI uri = child.awaitListening(Duration.ofSeconds(60));
            SpecServerClient client = new SpecServerClient(uri, Optional.of(Http.TOKEN), SpecServerClient.Options.DEFAULTS);
            assertTrue(client.put(5, TestSpecs.spec(5, "five"), Optional.empty()).created());
            SpecServerClientException e = org.junit.jupiter.api.Assertions.assertThrows(SpecServerClientException.class,
                    () -> SpecServerClient.create(uri).delete(5, Optional.empty()));
            assertEquals(401, e.status());
            assertTrue(Files.exists(specs.resolve("5.scxml")));
            child.terminate();
            assertTrue(child.stderr().contains("stopped"), "the shutdown hook closed the server:\n" + child.stderr());
        }
    }

    @Test
    void shouldWarnWhenInsecure() throws Exception {
        try (ChildServer child = ChildServer.start(dir.resolve("logs"), "insecure",
                List.of("--dir", dir.resolve("specs").toString(), "--insecure"))) {
            URI uri = child.awaitListening(Duration.ofSeconds(60));
            assertEquals(0, SpecServerClient.create(uri).health());
            assertTrue(child.stderr().contains("WARN") && child.stderr().contains("INSECURE"), child.stderr());
        }
    }
}
