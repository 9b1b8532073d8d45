package io.statecast.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.specserver.MessageStoreSpecCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code --service} is read: names, files, URIs, none, and what is refused. */
class DemoServiceTest {

    private static final int MAX = 256 * 1024;
    private static MessageStoreSpecCheck check;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        check = new MessageStoreSpecCheck(MAX);
    }

    @AfterAll
    static void close() {
        check.close();
    }

    @Test
    void aNameShouldBeAServiceOfTheServicesModule() throws Exception {
        DemoService s = DemoService.resolve("h2h-ack", check, MAX);
        assertEquals("classpath:services/h2h-ack.scxml", s.uri().toString());
        assertEquals(1, s.serviceId());
        assertEquals("h2h-ack", s.name());
        assertEquals(List.of("every-message", "no-duplicates"), s.promises());
        assertTrue(s.document().length > 0);
    }

    @Test
    void noneShouldBeBestEffortAndPromiseNothing() throws Exception {
        DemoService s = DemoService.resolve("NONE", check, MAX);
        assertNull(s.serviceId());
        assertNull(s.uri());
        assertEquals(List.of(), s.promises());
    }

    @Test
    void aPathShouldBeReadAsAFile() throws Exception {
        Path spec = dir.resolve("mine.scxml");
        try (var in = DemoServiceTest.class.getResourceAsStream("deliver-only.scxml")) {
            Files.write(spec, in.readAllBytes());
        }
        DemoService s = DemoService.resolve(spec.toString(), check, MAX);
        assertEquals("file", s.uri().getScheme());
        assertEquals(77, s.serviceId());
    }

    @Test
    void whatCannotBeReadOrIsNoSpecShouldBeRefusedNamingIt() throws Exception {
        DemoException missing = assertThrows(DemoException.class, () -> DemoService.resolve("no-such", check, MAX));
        assertTrue(missing.getMessage().contains("classpath:services/no-such.scxml"), missing.getMessage());
        Path bad = dir.resolve("bad.scxml");
        Files.writeString(bad, "<scxml/>");
        DemoException invalid = assertThrows(DemoException.class, () -> DemoService.resolve(bad.toString(), check, MAX));
        assertTrue(invalid.getMessage().contains("is not a valid service spec"), invalid.getMessage());
        DemoException odd = assertThrows(DemoException.class, () -> DemoService.resolve("a b", check, MAX));
        assertTrue(odd.getMessage().contains("neither a service name"), odd.getMessage());
        DemoException http = assertThrows(DemoException.class, () -> DemoService.resolve("http://x/s", check, MAX));
        assertTrue(http.getMessage().contains("only classpath: and file: specs"), http.getMessage());
    }
}
