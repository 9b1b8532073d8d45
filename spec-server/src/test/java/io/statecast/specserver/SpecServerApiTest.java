package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every status code of the API, over real HTTP/1.1 against a server on an ephemeral loopback port. */
class SpecServerApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private SpecServer server;
    private Http http;

    @BeforeEach
    void start() throws SpecServerException {
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN)
                .withLimits(SpecServerLimits.DEFAULTS.withMaxSpecBytes(16 * 1024)), new BasicSpecCheck());
        http = new Http(server.baseUri());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> create(int id, byte[] doc) {
        return http.send(http.authorized(http.put("/services/" + id, doc)));
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), r.headers().toString());
        return JSON.readTree(r.body());
    }

    @Test
    void shouldReportHealthWithServiceCount() throws Exception {
        JsonNode before = json(http.get("/health"));
        assertEquals("ok", before.get("status").asText());
        assertEquals(0, before.get("services").asInt());
        assertEquals(201, create(1, TestSpecs.spec(1, "one")).statusCode());
        assertEquals(1, json(http.get("/health")).get("services").asInt());
    }

    @Test
    void shouldCreateWith201AndServeTheExactBytesWithStrongEtag() throws Exception {
        byte[] doc = TestSpecs.spec(7, "seven");
        HttpResponse<String> created = create(7, doc);
        assertEquals(201, created.statusCode(), created.body());
        String etag = "\"" + SpecStore.sha256(doc) + "\"";
        assertEquals(etag, created.headers().firstValue("ETag").orElseThrow());
        assertEquals("/services/7", created.headers().firstValue("Location").orElseThrow());
        assertEquals(7, json(created).get("serviceId").asInt());

        HttpResponse<byte[]> got = http.sendBytes(http.request("/services/7").GET());
        assertEquals(200, got.statusCode());
        assertArrayEquals(doc, got.body());
        assertEquals(etag, got.headers().firstValue("ETag").orElseThrow());
        assertEquals("application/scxml+xml", got.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void shouldAnswerConditionalGetWith304WhenTheEtagMatches() {
        byte[] doc = TestSpecs.spec(3, "three");
        String etag = create(3, doc).headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> same = http.send(http.request("/services/3").header("If-None-Match", etag).GET());
        assertEquals(304, same.statusCode());
        assertEquals(etag, same.headers().firstValue("ETag").orElseThrow());
        assertEquals("", same.body());

        HttpResponse<String> listed = http.send(http.request("/services/3").header("If-None-Match", "\"other\", " + etag).GET());
        assertEquals(304, listed.statusCode());
        HttpResponse<String> star = http.send(http.request("/services/3").header("If-None-Match", "*").GET());
        assertEquals(304, star.statusCode());
        HttpResponse<String> other = http.send(http.request("/services/3").header("If-None-Match", "\"other\"").GET());
        assertEquals(200, other.statusCode());
    }

    @Test
    void shouldAnswer404WithJsonForAnAbsentService() throws Exception {
        HttpResponse<String> r = http.get("/services/42");
        assertEquals(404, r.statusCode());
        assertEquals(404, json(r).get("status").asInt());
    }

    @Test
    void shouldListServicesWithMetadata() throws Exception {
        byte[] a = TestSpecs.spec(20, "twenty");
        byte[] b = TestSpecs.spec(5, "five");
        create(20, a);
        create(5, b);
        JsonNode list = json(http.get("/services"));
        assertEquals(2, list.size());
        JsonNode first = list.get(0);
        assertEquals(5, first.get("serviceId").asInt());
        assertEquals("five", first.get("name").asText());
        assertEquals("message", first.get("scope").asText());
        assertEquals(SpecStore.sha256(b), first.get("sha256").asText());
        assertEquals(b.length, first.get("size").asLong());
        Instant storedAt = Instant.parse(first.get("storedAt").asText());
        assertTrue(storedAt.isAfter(Instant.now().minusSeconds(600)), storedAt.toString());
        assertEquals(20, list.get(1).get("serviceId").asInt());
    }

    @Test
    void shouldReplaceOnlyWithIfMatchOfTheCurrentEtag() throws Exception {
        String v1 = create(9, TestSpecs.spec(9, "nine", "v1")).headers().firstValue("ETag").orElseThrow();
        byte[] doc2 = TestSpecs.spec(9, "nine", "v2");

        HttpResponse<String> noCondition = create(9, doc2);
        assertEquals(412, noCondition.statusCode());
        assertTrue(json(noCondition).get("error").asText().contains("If-Match"), noCondition.body());

        HttpResponse<String> wrong = http.send(http.authorized(http.put("/services/9", doc2)).header("If-Match", "\"nope\""));
        assertEquals(412, wrong.statusCode());

        HttpResponse<String> weak = http.send(http.authorized(http.put("/services/9", doc2)).header("If-Match", "W/" + v1));
        assertEquals(412, weak.statusCode(), "If-Match uses strong comparison");

        HttpResponse<String> ok = http.send(http.authorized(http.put("/services/9", doc2)).header("If-Match", v1));
        assertEquals(200, ok.statusCode(), ok.body());
        String v2 = ok.headers().firstValue("ETag").orElseThrow();
        assertEquals("\"" + SpecStore.sha256(doc2) + "\"", v2);

        HttpResponse<String> star = http.send(http.authorized(http.put("/services/9", TestSpecs.spec(9, "nine", "v3"))).header("If-Match", "*"));
        assertEquals(412, star.statusCode(), "If-Match: * must not replace blindly");
        HttpResponse<String> stale = http.send(http.authorized(http.put("/services/9", TestSpecs.spec(9, "nine", "v3"))).header("If-Match", v1));
        assertEquals(412, stale.statusCode(), "a lost update must be refused");
        assertEquals(v2, http.get("/services/9").headers().firstValue("ETag").orElseThrow());
    }

    @Test
    void shouldRefuseIfMatchOnAnAbsentServiceAndHonourIfNoneMatchStar() {
        byte[] doc = TestSpecs.spec(11, "eleven");
        assertEquals(412, http.send(http.authorized(http.put("/services/11", doc)).header("If-Match", "\"x\"")).statusCode());
        assertEquals(412, http.send(http.authorized(http.put("/services/11", doc)).header("If-Match", "*")).statusCode());
        assertEquals(201, http.send(http.authorized(http.put("/services/11", doc)).header("If-None-Match", "*")).statusCode());
        HttpResponse<String> again = http.send(http.authorized(http.put("/services/11", doc)).header("If-None-Match", "*"));
        assertEquals(412, again.statusCode());
    }

    @Test
    void shouldAnswer400WithLocatedProblemsForAnInvalidDocument() throws Exception {
        byte[] broken = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <datamodel>\n</scxml>".getBytes();
        HttpResponse<String> r = create(5, broken);
        assertEquals(400, r.statusCode());
        JsonNode problems = json(r).get("problems");
        assertEquals(1, problems.size(), r.body());
        assertEquals(3, problems.get(0).get("line").asInt(), r.body());
        assertTrue(problems.get(0).get("column").asInt() > 0, r.body());
        assertFalse(problems.get(0).get("message").asText().isBlank());
        assertEquals(404, http.get("/services/5").statusCode(), "nothing stored");

        HttpResponse<String> empty = create(5, new byte[0]);
        assertEquals(400, empty.statusCode());
    }

    @Test
    void shouldAnswer409WhenTheDocumentDeclaresAnotherServiceId() throws Exception {
        HttpResponse<String> r = create(12, TestSpecs.spec(13, "thirteen"));
        assertEquals(409, r.statusCode());
        assertTrue(json(r).get("error").asText().contains("13"), r.body());
        assertEquals(404, http.get("/services/12").statusCode());
    }

    @Test
    void shouldRequireTheBearerTokenForWrites() throws Exception {
        byte[] doc = TestSpecs.spec(1, "one");
        HttpResponse<String> none = http.send(http.put("/services/1", doc));
        assertEquals(401, none.statusCode());
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
        assertEquals(401, json(none).get("status").asInt());

        HttpResponse<String> wrong = http.send(http.put("/services/1", doc).header("Authorization", "Bearer " + Http.TOKEN + "x"));
        assertEquals(401, wrong.statusCode());
        HttpResponse<String> prefix = http.send(http.put("/services/1", doc).header("Authorization", "Bearer " + Http.TOKEN.substring(1)));
        assertEquals(401, prefix.statusCode());
        HttpResponse<String> basic = http.send(http.put("/services/1", doc).header("Authorization", "Basic " + Http.TOKEN));
        assertEquals(401, basic.statusCode());
        assertEquals(401, http.send(http.request("/services/1").DELETE()).statusCode());
        assertEquals(404, http.get("/services/1").statusCode(), "an unauthorized write stores nothing");

        HttpResponse<String> lower = http.send(http.put("/services/1", doc).header("Authorization", "bearer " + Http.TOKEN));
        assertEquals(201, lower.statusCode(), "the scheme is case-insensitive");
        assertEquals(200, http.get("/services/1").statusCode(), "reads need no token");
    }

    @Test
    void shouldAcceptWritesWithoutTokenWhenInsecure(@TempDir Path other) throws SpecServerException {
        try (SpecServer insecure = SpecServer.start(SpecServerConfig.insecure(other), new BasicSpecCheck())) {
            Http h = new Http(insecure.baseUri());
            assertEquals(201, h.send(h.put("/services/1", TestSpecs.spec(1, "one"))).statusCode());
            assertEquals(204, h.send(h.request("/services/1").DELETE()).statusCode());
        }
    }

    @Test
    void shouldAnswer413ForABodyOverTheLimitByContentLength() throws Exception {
        byte[] big = TestSpecs.specOfSize(2, "two", 16 * 1024 + 1);
        HttpResponse<String> r = create(2, big);
        assertEquals(413, r.statusCode());
        assertEquals(413, json(r).get("status").asInt());
        assertEquals(404, http.get("/services/2").statusCode());

        byte[] atLimit = TestSpecs.specOfSize(2, "two", 16 * 1024);
        assertEquals(16 * 1024, atLimit.length);
        assertEquals(201, create(2, atLimit).statusCode(), "exactly maxSpecBytes is accepted");
    }

    @Test
    void shouldAnswer413ForAChunkedBodyOverTheLimit() {
        byte[] big = TestSpecs.specOfSize(2, "two", 64 * 1024);
        HttpRequest.Builder chunked = http.authorized(http.request("/services/2")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));
        HttpResponse<String> r;
        try {
            r = http.send(chunked);
        } catch (java.io.UncheckedIOException e) {
            // The server may close before the client has finished sending; then there is no status.
            assertEquals(404, http.get("/services/2").statusCode());
            assertEquals(1, server.metrics().snapshot().get("tooLarge"));
            return;
        }
        assertEquals(413, r.statusCode(), r.body());
        assertEquals(404, http.get("/services/2").statusCode());

        byte[] small = TestSpecs.spec(2, "two");
        HttpResponse<String> ok = http.send(http.authorized(http.request("/services/2")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(small)))));
        assertEquals(201, ok.statusCode(), "a chunked body within the limit is accepted");
    }

    @Test
    void shouldDeleteWith204And404AndHonourIfMatch() {
        String etag = create(4, TestSpecs.spec(4, "four")).headers().firstValue("ETag").orElseThrow();
        assertEquals(412, http.send(http.authorized(http.request("/services/4").DELETE()).header("If-Match", "\"old\"")).statusCode());
        assertEquals(200, http.get("/services/4").statusCode());
        assertEquals(204, http.send(http.authorized(http.request("/services/4").DELETE()).header("If-Match", etag)).statusCode());
        assertEquals(404, http.get("/services/4").statusCode());
        assertEquals(404, http.send(http.authorized(http.request("/services/4").DELETE())).statusCode());
        assertEquals(412, http.send(http.authorized(http.request("/services/4").DELETE()).header("If-Match", etag)).statusCode());

        create(4, TestSpecs.spec(4, "four"));
        assertEquals(204, http.send(http.authorized(http.request("/services/4").DELETE())).statusCode(), "If-Match is optional");
        assertEquals(201, create(4, TestSpecs.spec(4, "four")).statusCode(), "a deleted id can be created again");
    }

    @Test
    void shouldRejectIdsThatAreNotCanonicalDecimalInts() throws Exception {
        for (String bad : new String[] {"abc", "007", "+7", "-0", "-5", "2147483648", "-2147483648", "1e3", "0x10", "%31", "00"}) {
            HttpResponse<String> r = http.get("/services/" + bad);
            assertEquals(400, r.statusCode(), bad);
            assertEquals(400, json(r).get("status").asInt(), bad);
        }
        assertEquals(404, http.get("/services/2147483647").statusCode());
        assertEquals(404, http.get("/services/0").statusCode());
        assertEquals(404, json(http.get("/services/1/extra")).get("status").asInt());
        assertEquals(404, json(http.get("/nothing")).get("status").asInt());
        assertEquals(404, json(http.get("/services/")).get("status").asInt(), "no trailing-slash aliases");
    }

    @Test
    void shouldAnswer405WithAllowForUnsupportedMethods() throws Exception {
        HttpResponse<String> post = http.send(http.authorized(http.request("/services/1")
                .POST(HttpRequest.BodyPublishers.ofString("x"))));
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD, PUT, DELETE, OPTIONS", post.headers().firstValue("Allow").orElseThrow());
        assertEquals(405, json(post).get("status").asInt());

        HttpResponse<String> putList = http.send(http.authorized(http.put("/services", TestSpecs.spec(1, "x"))));
        assertEquals(405, putList.statusCode());
        assertEquals("GET, HEAD, OPTIONS", putList.headers().firstValue("Allow").orElseThrow());

        HttpResponse<String> patch = http.send(http.authorized(http.request("/health")
                .method("PATCH", HttpRequest.BodyPublishers.noBody())));
        assertEquals(405, patch.statusCode());

        HttpResponse<String> options = http.send(http.request("/services/1").method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertEquals(204, options.statusCode());
        assertEquals("GET, HEAD, PUT, DELETE, OPTIONS", options.headers().firstValue("Allow").orElseThrow());

        HttpResponse<String> anonymousPost = http.send(http.request("/services/1").POST(HttpRequest.BodyPublishers.ofString("x")));
        assertEquals(401, anonymousPost.statusCode(), "methods with a body are authorized before anything else");
    }

    @Test
    void shouldServeHeadWithoutBody() {
        byte[] doc = TestSpecs.spec(8, "eight");
        create(8, doc);
        HttpResponse<String> head = http.send(http.request("/services/8").method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals(String.valueOf(doc.length), head.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(200, http.get("/health").statusCode(), "the connection is still in step after HEAD");
    }

    @Test
    void shouldRenderTheIndexPageWithEverythingEscaped() {
        String hostile = "&lt;script&gt;alert(&quot;x&quot;)&amp;&lt;/script&gt;&lt;img src=x onerror=&apos;y&apos;&gt;";
        assertEquals(201, create(6, TestSpecs.spec(6, hostile)).statusCode());
        create(10, TestSpecs.spec(10, "plain-name"));
        HttpResponse<String> page = http.get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow().contains("default-src 'none'"));
        String body = page.body();
        assertFalse(body.contains("<script"), body);
        assertFalse(body.contains("<img"), body);
        assertTrue(body.contains("&lt;script&gt;alert(&quot;x&quot;)&amp;&lt;/script&gt;"), body);
        assertTrue(body.contains("plain-name"), body);
        assertTrue(body.contains("href=\"/catalogue/10\""), body);
    }

    @Test
    void shouldCountWhatItRefused() {
        http.send(http.put("/services/1", TestSpecs.spec(1, "one")));
        create(1, "not xml".getBytes());
        assertEquals(1, server.metrics().snapshot().get("unauthorized"));
        assertEquals(1, server.metrics().snapshot().get("invalidSpecs"));
        assertEquals(Optional.empty(), server.services().stream().findAny());
    }
}
