package io.statecast.messagestore.tools.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecLoader;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The loader's problems come out of lint under the right rule ids: this pins the wording the
 * classification relies on to real loader output.
 */
class ValidationRulesTest {

    private static SpecLoader loader;
    private static Linter linter;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
        linter = new Linter(loader);
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    private static List<String> rules(String resource) {
        return linter.lint(LintFixturesTest.bytes(resource), resource).stream()
                .map(f -> f.rule().id() + "@" + f.line() + ":" + f.column()).toList();
    }

    @Test
    void shouldNameTheLoadersProblemsWithRules() {
        assertEquals(List.of("unused-event@16:9", "undeclared-event@38:5"), rules("invalid/undeclared-event.scxml"));
        assertEquals(List.of("undeclared-event@19:9"), rules("invalid/undeclared-constituent.scxml"));
        assertEquals(List.of("timer-never-set@16:9", "undeclared-timer@28:7"),
                rules("invalid/timer-without-event.scxml"));
        assertEquals(List.of("invalid@31:3", "unreachable-state@31:3"), rules("hostile/state-src.scxml"));
        assertEquals(List.of("invalid@24:5"), rules("invalid/cond-attribute.scxml"));
    }

    @Test
    void shouldReportAnUnreadableFileAsAnError() {
        List<Finding> f = linter.lint(java.nio.file.Path.of("/nonexistent/spec.scxml"));
        assertEquals(1, f.size());
        assertEquals(Rule.INVALID, f.get(0).rule());
        assertTrue(f.get(0).isError());
        assertTrue(f.get(0).format().startsWith("/nonexistent/spec.scxml: error: cannot read spec"), f.toString());
    }

    @Test
    void shouldFormatAFindingWithFileLineColumnSeverityAndRule() {
        Finding f = Finding.of(Rule.LEAKING_STATE, "a.scxml", 3, 5, "state x leaks:\n  really");
        assertEquals("a.scxml:3:5: error: state x leaks: really [leaking-state]", f.format());
    }
}
