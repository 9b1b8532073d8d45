package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index page shows each stored service's state diagram, drawn once per version, escaped. */
class IndexDiagramsTest {

    @TempDir
    Path dir;

    /** Accepted by {@link BasicSpecCheck} (metadata only) but refused by the MessageStore: undeclared event. */
    private static byte[] unloadable(int id) {
        return new String(TestSpecs.spec(id, "broken"), StandardCharsets.UTF_8)
                .replace("<transition event=\"hello\"", "<transition event=\"nosuchevent\"")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldShowInlineDiagramsAndANoteForASpecThatDoesNotRender() throws Exception {
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            String hostile = "&lt;script&gt;alert(1)&lt;/script&gt;";
            assertEquals(201, http.send(http.authorized(http.put("/services/3", TestSpecs.spec(3, hostile)))).statusCode());
            assertEquals(201, http.send(http.authorized(http.put("/services/4", unloadable(4)))).statusCode());
            HttpResponse<String> page = http.get("/");
            assertEquals(200, page.statusCode());
            String body = page.body();
            assertTrue(body.contains("<h2 id=\"service-3\">&lt;script&gt;alert(1)&lt;/script&gt; (ServiceID 3)</h2>\n"
                    + "<div class=\"diagram\"><svg"), body);
            assertFalse(body.contains("<?xml"), "the XML declaration is dropped from inline SVG");
            assertFalse(body.contains("<script"), body);
            assertFalse(body.contains(" id=\"arrow"), "marker ids are prefixed per diagram: " + body);
            assertTrue(body.contains("url(#d"), body);
            assertTrue(body.contains(">idle</text>") && body.contains(">done</text>"), "state names drawn: " + body);
            assertTrue(body.contains("<p class=\"note\">no diagram: the spec does not load with this server&#39;s "
                    + "MessageStore</p>"), body);
        }
    }

    private static void put(SpecStore store, SpecCheck check, byte[] doc, SpecStore.Preconditions pre) throws Exception {
        SpecCheck.Validated v = check.check(doc);
        assertTrue(v instanceof SpecCheck.Validated.Valid, v.toString());
        store.put(((SpecCheck.Validated.Valid) v).metadata(), doc, pre);
    }

    @Test
    void shouldRenderEachVersionOnce() throws Exception {
        BasicSpecCheck check = new BasicSpecCheck();
        try (SpecStore store = SpecStore.open(dir, check, 1 << 18, 100, Clock.systemUTC());
                DiagramCache cache = new DiagramCache(1 << 18)) {
            put(store, check, TestSpecs.spec(5, "five"), SpecStore.Preconditions.NONE);
            DiagramCache.Diagram first = cache.diagram(store, 5, cache.budget());
            assertNotNull(first.svg(), first.note());
            assertTrue(first.svg().contains("five (ServiceID 5)"), first.svg());
            assertEquals(first, cache.diagram(store, 5, cache.budget()));
            assertEquals(1, cache.renders(), "the second page is served from the cache");

            byte[] renamed = TestSpecs.spec(5, "renamed");
            put(store, check, renamed, new SpecStore.Preconditions(
                    EntityTags.parse("\"" + SpecStore.sha256(TestSpecs.spec(5, "five")) + "\""), java.util.Optional.empty()));
            assertTrue(cache.diagram(store, 5, cache.budget()).svg().contains("renamed"), "a new version is drawn");
            assertEquals(2, cache.renders());

            put(store, check, unloadable(6), SpecStore.Preconditions.NONE);
            DiagramCache.Budget none = cache.budget();
            for (int i = 0; i < DiagramCache.RENDERS_PER_PAGE; i++) {
                none.take();
            }
            assertEquals("not drawn yet: reload the page", cache.diagram(store, 6, none).note(),
                    "a page renders a bounded number of specs");
            DiagramCache.Diagram broken = cache.diagram(store, 6, cache.budget());
            assertNull(broken.svg());
            assertTrue(broken.note().startsWith("no diagram"), broken.note());
            assertEquals("deleted meanwhile", cache.diagram(store, 99, cache.budget()).note());
        }
    }
}
