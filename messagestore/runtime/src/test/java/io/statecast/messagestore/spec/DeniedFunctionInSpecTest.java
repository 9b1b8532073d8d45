package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A spec that reads a file through a call Saxon's optimiser would fold away is refused at
 * validation, with one line naming the spec, its line and the function.
 */
class DeniedFunctionInSpecTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    /** The minimal fixture with its composite query replaced by {@code query} (line 19). */
    private static byte[] spec(String query) {
        String text = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<XQuery>count(//Event[@name='ping']) ge 1</XQuery>", "<XQuery>" + query + "</XQuery>");
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"exists(doc('file:///etc/passwd'))", "exists(unparsed-text-lines('file:///etc/passwd'))",
        "exists(json-doc('file:///etc/passwd')) or true()", "empty(collection())"})
    void shouldRefuseAFoldableReadNamingSpecLineAndFunction(String query) {
        List<Problem> problems = loader.validate(spec(query), "reader.scxml");
        List<Problem> errors = problems.stream().filter(Problem::isError).toList();
        String all = problems.stream().map(p -> p.format("reader.scxml")).collect(Collectors.joining("\n"));
        assertEquals(1, errors.size(), all);
        String line = errors.get(0).format("reader.scxml");
        String function = query.substring(query.indexOf('(') + 1, query.indexOf('(', query.indexOf('(') + 1));
        assertTrue(line.startsWith("reader.scxml:19:"), line);
        assertTrue(line.contains("fn:" + function + "() is not allowed"), line);
        assertEquals(1, line.lines().count(), line);
    }
}
