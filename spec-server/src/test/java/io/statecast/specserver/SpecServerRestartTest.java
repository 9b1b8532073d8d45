package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a server finds in its directory when it starts: kept, cleaned, or quarantined. */
class SpecServerRestartTest {

    @TempDir
    Path dir;

    private SpecServer start() throws SpecServerException {
        return SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck());
    }

    private static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldServeTheSameServicesWithTheSameEtagsAfterARestart() throws Exception {
        byte[] doc = TestSpecs.spec(1, "one");
        StoredSpec before;
        try (SpecServer s = start()) {
            Http h = new Http(s.baseUri());
            assertEquals(201, h.send(h.authorized(h.put("/services/1", doc))).statusCode());
            before = s.services().get(0);
        }
        try (SpecServer s = start()) {
            assertEquals(List.of(before), s.services(), "metadata, hash, size and storedAt survive a restart");
            Http h = new Http(s.baseUri());
            HttpResponse<byte[]> got = h.sendBytes(h.request("/services/1").GET());
            assertArrayEquals(doc, got.body());
            assertEquals(before.etag(), got.headers().firstValue("ETag").orElseThrow());
            assertTrue(s.quarantined().isEmpty());
        }
    }

    @Test
    void shouldQuarantineStoredFilesThatNoLongerValidateAndServeTheRest() throws Exception {
        try (SpecServer s = start()) {
            Http h = new Http(s.baseUri());
            for (int id = 1; id <= 3; id++) {
                assertEquals(201, h.send(h.authorized(h.put("/services/" + id, TestSpecs.spec(id, "s" + id)))).statusCode());
            }
        }
        byte[] good = Files.readAllBytes(dir.resolve("1.scxml"));
        Files.write(dir.resolve("2.scxml"), Arrays.copyOf(good, good.length / 2));              // torn
        Files.write(dir.resolve("3.scxml"), TestSpecs.spec(4, "moved"));                          // wrong id
        Files.write(dir.resolve("007.scxml"), TestSpecs.spec(7, "seven"));                        // non-canonical name
        Files.write(dir.resolve("8.scxml"), TestSpecs.specOfSize(8, "big", SpecServerLimits.DEFAULT_MAX_SPEC_BYTES + 1));
        Files.writeString(dir.resolve("README.txt"), "operator notes");                           // not ours

        try (SpecServer s = start()) {
            assertEquals(List.of(1), s.services().stream().map(StoredSpec::serviceId).toList());
            assertEquals(4, s.quarantined().size(), s.quarantined().toString());
            Http h = new Http(s.baseUri());
            assertEquals(200, h.get("/services/1").statusCode());
            for (String id : new String[] {"2", "3", "4", "7", "8"}) {
                assertEquals(404, h.get("/services/" + id).statusCode(), id);
            }
            assertEquals(1, new com.fasterxml.jackson.databind.ObjectMapper().readTree(h.get("/health").body()).get("services").asInt());
        }
        List<String> top = names(dir);
        assertEquals(List.of(".catalogue", ".lock", "1.scxml", "README.txt", SpecHistory.AUDIT_LOG, SpecHistory.HISTORY_DIR, "quarantine"), top);
        List<String> quarantined = names(dir.resolve("quarantine"));
        assertEquals(8, quarantined.size(), quarantined.toString());
        for (String stem : new String[] {"2.scxml.", "3.scxml.", "007.scxml.", "8.scxml."}) {
            assertTrue(quarantined.stream().anyMatch(n -> n.startsWith(stem) && !n.endsWith(".problems.txt")), stem + " in " + quarantined);
            Path report = dir.resolve("quarantine").resolve(quarantined.stream()
                    .filter(n -> n.startsWith(stem) && n.endsWith(".problems.txt")).findFirst().orElseThrow());
            assertFalse(Files.readString(report, StandardCharsets.UTF_8).isBlank(), report.toString());
        }
        String wrongId = Files.readString(dir.resolve("quarantine").resolve(quarantined.stream()
                .filter(n -> n.startsWith("3.scxml.") && n.endsWith(".problems.txt")).findFirst().orElseThrow()));
        assertTrue(wrongId.contains("ServiceID 4"), wrongId);

        try (SpecServer s = start()) {
            assertTrue(s.quarantined().isEmpty(), "quarantine is not re-examined");
            assertEquals(1, s.services().size());
        }
    }

    @Test
    void shouldRemoveUploadTemporaryFilesACrashLeftBehind() throws Exception {
        Files.write(dir.resolve(".upload-5-123456.tmp"), TestSpecs.spec(5, "half written"));
        Files.write(dir.resolve(".upload--9-1.tmp"), new byte[] {1, 2, 3});
        try (SpecServer s = start()) {
            assertTrue(s.services().isEmpty());
            assertTrue(s.quarantined().isEmpty());
        }
        assertEquals(List.of(".catalogue", ".lock"), names(dir));
    }

    @Test
    void shouldRefuseASecondServerOnTheSameDirectory() throws Exception {
        try (SpecServer first = start()) {
            SpecServerException e = assertThrows(SpecServerException.class, this::start);
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            assertEquals(200, new Http(first.baseUri()).get("/health").statusCode(), "the first is unaffected");
        }
        try (SpecServer again = start()) {
            assertEquals(0, again.services().size(), "the lock is released on close");
        }
    }

    @Test
    void shouldReportAnUnusableDirectory() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        SpecServerException e = assertThrows(SpecServerException.class,
                () -> SpecServer.start(SpecServerConfig.secured(file, Http.TOKEN), new BasicSpecCheck()));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void shouldReportAPortInUse() throws Exception {
        try (SpecServer first = start()) {
            int port = first.address().getPort();
            Path other = Files.createDirectory(dir.resolve("other"));
            SpecServerException e = assertThrows(SpecServerException.class,
                    () -> SpecServer.start(SpecServerConfig.secured(other, Http.TOKEN).withPort(port), new BasicSpecCheck()));
            assertTrue(e.getMessage().contains(String.valueOf(port)), e.getMessage());
            try (SpecServer reuse = SpecServer.start(SpecServerConfig.secured(other, Http.TOKEN), new BasicSpecCheck())) {
                assertTrue(reuse.services().isEmpty(), "a failed start released the directory");
            }
        }
    }
}
