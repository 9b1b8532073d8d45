package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML catalogue over real HTTP: list, pages, escaping of hostile spec text, and its bounded cost. */
class CatalogueTest {

    private static final Duration DESCRIBED = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** Accepted by {@link BasicSpecCheck} (metadata only) but refused by the MessageStore: undeclared event. */
    private static byte[] unloadable(int id) {
        return new String(TestSpecs.spec(id, "broken"), StandardCharsets.UTF_8)
                .replace("<transition event=\"hello\"", "<transition event=\"nosuchevent\"")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static void put(Http http, int id, byte[] doc) {
        HttpResponse<String> r = http.send(http.authorized(http.put("/services/" + id, doc)));
        assertEquals(201, r.statusCode(), r.body());
    }

    private static String awaitDescribed(Http http, int id) {
        String[] page = new String[1];
        Await.until(() -> {
            page[0] = http.get("/catalogue/" + id).body();
            return !page[0].contains("being described");
        }, DESCRIBED, () -> "the page of service " + id + " to be described");
        return page[0];
    }

    @Test
    void shouldListServicesAndShowEachOnesPageWithHostileTextShownAsText() throws Exception {
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            byte[] doc = TestSpecs.described(3, "<b>bold</b>", "<script>alert(1)</script> & more",
                    new String[] {"TimeoutACK", "duration", "500", "Wait <i>this</i> long"},
                    new String[] {"Retries", "integer", "3", "\"quoted\" 'too'"});
            put(http, 3, doc);
            put(http, 4, unloadable(4));

            String page = awaitDescribed(http, 3);
            assertFalse(page.contains("<script"), page);
            assertFalse(page.contains("<b>"), page);
            assertTrue(page.contains("<h2>&lt;b&gt;bold&lt;/b&gt; <span class=\"id\">ServiceID 3</span></h2>"), page);
            assertTrue(page.contains("<p class=\"description\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>"), page);
            assertTrue(page.contains("<div class=\"diagram\"><svg"), page);
            assertTrue(page.contains(">idle</text>") && page.contains(">done</text>"), "state names drawn: " + page);
            assertFalse(page.contains("<?xml"), "the XML declaration is dropped from inline SVG");
            assertTrue(page.contains("<tr><td><code>TimeoutACK</code></td><td>duration</td><td><code>500</code></td>"
                    + "<td>Wait &lt;i&gt;this&lt;/i&gt; long</td></tr>"), page);
            assertTrue(page.contains("<tr><td><code>Retries</code></td><td>integer</td><td><code>3</code></td>"
                    + "<td>&quot;quoted&quot; &#39;too&#39;</td></tr>"), page);
            assertTrue(page.contains("<a class=\"download\" href=\"/services/3\" download=\"service-3.scxml\">"), page);
            assertTrue(page.contains("<dt>delivery modes</dt><dd>unicast</dd>"), page);
            assertTrue(page.contains("<code>" + SpecStore.sha256(doc) + "</code>"), "the version's digest: " + page);
            assertArrayEquals(doc, http.sendBytes(http.request("/services/3").GET()).body(), "the download link serves the spec");

            HttpResponse<String> list = http.get("/");
            assertEquals(200, list.statusCode());
            assertEquals("text/html; charset=utf-8", list.headers().firstValue("content-type").orElseThrow());
            assertTrue(list.headers().firstValue("content-security-policy").orElseThrow().startsWith("default-src 'none'"));
            String body = list.body();
            assertTrue(body.contains("<a class=\"service\" href=\"/catalogue/3\">&lt;b&gt;bold&lt;/b&gt;</a></td><td>3</td>"
                    + "<td>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</td>"), body);
            assertTrue(body.contains("<code>" + SpecStore.sha256(doc).substring(0, 12) + "</code>"), "latest version: " + body);
            assertTrue(body.contains("href=\"/catalogue/4\""), body);
            assertFalse(body.contains("<script") || body.contains("<svg"), "the list escapes and draws nothing: " + body);

            String broken = awaitDescribed(http, 4);
            assertTrue(broken.contains("<p class=\"note\">no diagram: the spec does not load with this server&#39;s MessageStore</p>"), broken);
            assertFalse(broken.contains("<h3>Parameters</h3>"), broken);
            assertTrue(broken.contains("href=\"/services/4\""), "still downloadable: " + broken);

            assertEquals(404, http.get("/catalogue/99").statusCode());
            assertEquals(400, http.get("/catalogue/007").statusCode());
            assertEquals(404, http.get("/catalogue/3/x").statusCode());
            assertEquals(405, http.send(http.authorized(http.put("/catalogue/3", doc))).statusCode());
            assertEquals(0, server.metrics().snapshot().get("internalErrors"));
        }
    }

    @Test
    void shouldPaginateTheList() throws Exception {
        SpecServerConfig config = SpecServerConfig.secured(dir, Http.TOKEN)
                .withLimits(SpecServerLimits.DEFAULTS.withServicesPerPage(2));
        try (SpecServer server = SpecServer.start(config, new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            for (int id = 1; id <= 5; id++) {
                put(http, id, TestSpecs.spec(id, "svc" + id));
            }
            for (int id = 1; id <= 5; id++) {
                awaitDescribed(http, id); // pages then stay the same from one request to the next
            }
            String first = http.get("/").body();
            assertTrue(first.contains("5 services, page 1 of 3"), first);
            assertTrue(first.contains("/catalogue/1\"") && first.contains("/catalogue/2\"") && !first.contains("/catalogue/3\""), first);
            assertTrue(first.contains("<a rel=\"next\" href=\"/?page=2\">") && !first.contains("rel=\"prev\""), first);
            assertEquals(first, http.get("/?page=1").body());
            String last = http.get("/?page=3").body();
            assertTrue(last.contains("/catalogue/5\"") && !last.contains("/catalogue/4\""), last);
            assertTrue(last.contains("<a rel=\"prev\" href=\"/?page=2\">") && !last.contains("rel=\"next\""), last);
            for (String bad : List.of("/?page=4", "/?page=0", "/?page=x", "/?page=-1", "/?page=99999999999")) {
                assertEquals(404, http.get(bad).statusCode(), bad);
            }
            try (RawConnection raw = new RawConnection(server.address())) {
                raw.send("GET /?page=%zz HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(404, raw.readResponse().status(), "a bad percent-encoding is no page");
            }
        }
    }

    private static long filesIn(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        }
    }

    @Test
    void shouldDescribeEachVersionOnceWhateverIsRequestedAndKeepItAcrossRestarts() throws Exception {
        int n = 6;
        Path catalogue = dir.resolve(Catalogue.DIRECTORY);
        byte[] first = TestSpecs.spec(1, "svc1");
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            for (int id = 1; id <= n; id++) {
                put(http, id, id == 1 ? first : TestSpecs.spec(id, "svc" + id));
            }
            for (int round = 0; round < 3; round++) {
                assertEquals(200, http.get("/").statusCode());
                for (int id = 1; id <= n; id++) {
                    assertEquals(200, http.get("/catalogue/" + id).statusCode());
                }
            }
            for (int id = 1; id <= n; id++) {
                assertTrue(awaitDescribed(http, id).contains("<svg"));
            }
            assertEquals(n, server.catalogue().descriptions(), "one description per version, however many requests");
            for (int id = 1; id <= n; id++) {
                http.get("/catalogue/" + id);
            }
            http.get("/");
            assertEquals(n, server.catalogue().descriptions());

            HttpResponse<String> replaced = http.send(http.authorized(http.put("/services/1", TestSpecs.spec(1, "renamed")))
                    .header("If-Match", EntityTags.of(SpecStore.sha256(first))));
            assertEquals(200, replaced.statusCode(), replaced.body());
            assertTrue(awaitDescribed(http, 1).contains(">renamed"), "a new version is described");
            assertEquals(n + 1, server.catalogue().descriptions());
            Await.until(() -> !Files.exists(catalogue.resolve(SpecStore.sha256(first) + ".json")), DESCRIBED,
                    () -> "the old version's files to be deleted");
            assertEquals(n, filesIn(catalogue, ".json"));
            assertEquals(n, filesIn(catalogue, ".svg"));
        }
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            for (int id = 1; id <= n; id++) {
                String page = http.get("/catalogue/" + id).body();
                assertTrue(page.contains("<div class=\"diagram\"><svg"), "served from the files at once: " + page);
            }
            assertFalse(http.get("/").body().contains("being described"));
            assertEquals(0, server.catalogue().descriptions(), "nothing is drawn again after a restart");
        }
    }
}
