package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code <Scope>expression</Scope>} and its {@code <ScopeKey>}: parsed, compiled, refused when wrong. */
class ScopeKeyDeclarationTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    /** The minimal fixture with {@code scope} after its DeliveryMode (line 8). */
    private static byte[] spec(String scope) {
        return new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<DeliveryMode>unicast</DeliveryMode>", "<DeliveryMode>unicast</DeliveryMode>" + scope)
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldCompileTheKeyOfAnExpressionScope() throws Exception {
        ServiceSpec s = loader.load(spec("<Scope>expression</Scope><ScopeKey> Fields/Field[@name='stream'] </ScopeKey>"),
                "stream.scxml");
        assertEquals(Scope.EXPRESSION, s.service().scope());
        assertEquals("Fields/Field[@name='stream']", s.service().scopeKey().text());
        assertNotNull(s.service().scopeKey().path().compiled(), "in the compiled subset");
        assertTrue(Scope.labels().contains("expression"));
    }

    @Test
    void shouldCompileAKeyOutsideTheSubsetForSaxonAndReadParameters() throws Exception {
        ServiceSpec s = loader.load(spec("<Scope>expression</Scope>"
                + "<ScopeKey>concat(SourceAddress, '/', $Wait)</ScopeKey>"), "concat.scxml");
        assertNull(s.service().scopeKey().path().compiled(), "concat() runs on Saxon");
    }

    @Test
    void shouldHaveNoKeyWithOtherScopes() throws Exception {
        assertNull(loader.load(spec("<Scope>flow</Scope>"), "flow.scxml").service().scopeKey());
        assertNull(loader.load(spec(""), "default.scxml").service().scopeKey());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<Scope>expression</Scope>                                  | scope expression needs a <ScopeKey>",
        "<Scope>flow</Scope><ScopeKey>SourceAddress</ScopeKey>      | <ScopeKey> goes with <Scope>expression</Scope> only; this service's scope is flow",
        "<ScopeKey>SourceAddress</ScopeKey>                         | <ScopeKey> goes with <Scope>expression</Scope> only; this service's scope is message",
        "<Scope>expression</Scope><ScopeKey>Fields/Field[</ScopeKey> | ScopeKey: XPath does not compile",
        "<Scope>expression</Scope><ScopeKey>doc('file:///etc/passwd')/x</ScopeKey> | ScopeKey: ",
        "<Scope>expression</Scope><ScopeKey>$Nope</ScopeKey>         | ScopeKey: XPath does not compile",
        "<Scope>expression</Scope><ScopeKey>   </ScopeKey>           | <ScopeKey> is empty",
    })
    void shouldRefuseABadKeyNamingIt(String declaration, String expected) {
        byte[] bytes = spec(declaration);
        List<Problem> problems = loader.validate(bytes, "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        List<Problem> errors = problems.stream().filter(Problem::isError).toList();
        assertEquals(1, errors.size(), all);
        assertTrue(errors.get(0).message().contains(expected), all);
        assertEquals(8, errors.get(0).line(), "the error points at the service section's line: " + all);
        SpecException e = assertThrows(SpecException.class, () -> loader.load(bytes, "bad.scxml"));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void shouldRefuseDocNamingTheFunction() {
        List<Problem> problems = loader.validate(spec("<Scope>expression</Scope><ScopeKey>doc('file:///etc/passwd')/x"
                + "</ScopeKey>"), "doc.scxml");
        String all = problems.stream().map(p -> p.format("doc.scxml")).collect(Collectors.joining("\n"));
        assertTrue(all.contains("ScopeKey") && all.contains("doc"), all);
    }

    @Test
    void shouldRefuseAnUnknownScopeListingTheKnownOnes() {
        List<Problem> problems = loader.validate(spec("<Scope>by-field</Scope>"), "unknown.scxml");
        String all = problems.stream().map(p -> p.format("unknown.scxml")).collect(Collectors.joining("\n"));
        assertTrue(problems.stream().anyMatch(Problem::isError), all);
        assertTrue(all.contains("expression"), "the schema's enumeration or the validator lists expression: " + all);
    }
}
