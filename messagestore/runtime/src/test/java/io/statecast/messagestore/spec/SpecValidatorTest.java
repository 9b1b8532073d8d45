package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each semantic check has a fixture in {@code invalid/} that fails it, listed in
 * {@code invalid/expected.txt} with the line and column the error must name.
 */
class SpecValidatorTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    static Stream<Arguments> invalidSpecs() {
        return TestResources.index("invalid/expected.txt").stream()
                .map(c -> Arguments.of(c[0], Integer.parseInt(c[1]), Integer.parseInt(c[2]), c[3]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSpecs")
    void shouldRefuseWithTheErrorAtItsPosition(String file, int line, int column, String expected) {
        byte[] spec = TestResources.bytes("invalid/" + file);
        List<Problem> problems = loader.validate(spec, file);
        String all = problems.stream().map(p -> p.format(file)).collect(Collectors.joining("\n"));
        Problem hit = problems.stream().filter(p -> p.isError() && p.message().contains(expected)).findFirst()
                .orElseThrow(() -> new AssertionError("no error containing '" + expected + "' in:\n" + all));
        assertEquals(line, hit.line(), "line of: " + hit.format(file));
        if (column > 0) {
            assertEquals(column, hit.column(), "column of: " + hit.format(file));
        } else {
            assertTrue(hit.column() > 0, "an XQuery error names a column: " + hit.format(file));
        }
        // One mistake, one error: checks do not cascade. (An orphan action:set and the
        // action:execute after it are separate mistakes, one error per line.)
        long errors = problems.stream().filter(Problem::isError).count();
        assertEquals(file.equals("set-without-create.scxml") ? 3 : 1, errors, all);
        SpecException e = assertThrows(SpecException.class, () -> loader.load(spec, file));
        assertTrue(e.problems().contains(hit), e.getMessage());
    }

    @Test
    void shouldLoadTheMinimalFixtureWithoutProblems() throws Exception {
        byte[] spec = TestResources.bytes("specs/minimal.scxml");
        assertEquals(List.of(), loader.validate(spec, "minimal.scxml"));
        ServiceSpec s = loader.load(spec, "minimal.scxml");
        assertEquals("probe", s.service().name());
        assertEquals(7, s.service().serviceId());
    }

    @Test
    void shouldWarnButLoadWhenSomethingIsDeclaredAndNeverUsed() throws Exception {
        String spec = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8).replace(
                "<Event name=\"tick\">", "<Event name=\"unused\"><Message><MessageType>9</MessageType></Message></Event>\n"
                        + "        <Event name=\"tick\">");
        byte[] bytes = spec.getBytes(StandardCharsets.UTF_8);
        List<Problem> problems = loader.validate(bytes, "warn.scxml");
        assertEquals(1, problems.size(), problems.toString());
        Problem w = problems.get(0);
        assertFalse(w.isError());
        assertEquals(16, w.line(), w.toString());
        assertTrue(w.message().contains("event unused is declared but no transition or composite event uses it"),
                w.toString());
        ServiceSpec s = loader.load(bytes, "warn.scxml");
        assertEquals(List.of(w), s.warnings());
    }

    @Test
    void shouldWarnAboutUnreachableStatesAndUnsetTimers() {
        String spec = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<state id=\"busy\">", "<state id=\"island\"><transition event=\"tick\"/></state>\n"
                        + "  <state id=\"busy\">");
        List<Problem> problems = loader.validate(spec.getBytes(StandardCharsets.UTF_8), "island.scxml");
        assertTrue(problems.stream().noneMatch(Problem::isError), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.message().contains("state island is unreachable")),
                problems.toString());
    }

    @Test
    void shouldReportEveryErrorOfASpecNotJustTheFirst() {
        String spec = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<transition event=\"tick\" target=\"idle\"/>",
                        "<transition event=\"tock\" target=\"nowhere\"/>");
        List<Problem> errors = loader.validate(spec.getBytes(StandardCharsets.UTF_8), "two.scxml").stream()
                .filter(Problem::isError).toList();
        assertEquals(2, errors.size(), errors.toString());
    }
}
