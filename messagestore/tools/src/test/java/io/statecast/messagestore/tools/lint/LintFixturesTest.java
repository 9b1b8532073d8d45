package io.statecast.messagestore.tools.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each deliberately broken spec in {@code lint/} is caught by its rule, with the message and
 * position {@code lint/expected.txt} gives, and reports nothing else; the blueprint's hop-to-hop
 * spec and the hierarchical fixture are clean.
 */
class LintFixturesTest {

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

    static byte[] bytes(String resource) {
        try (InputStream in = LintFixturesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is on the test classpath");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Expected(int line, int column, String severity, String rule, String message) {
    }

    static Map<String, List<Expected>> expectations() {
        Map<String, List<Expected>> out = new LinkedHashMap<>();
        for (String line : new String(bytes("lint/expected.txt"), StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] c = line.split("\\|", -1);
            assertEquals(6, c.length, "malformed row: " + line);
            out.computeIfAbsent(c[0].strip(), k -> new ArrayList<>()).add(new Expected(Integer.parseInt(c[1].strip()),
                    Integer.parseInt(c[2].strip()), c[3].strip(), c[4].strip(), c[5].strip()));
        }
        return out;
    }

    static Stream<String> brokenFixtures() {
        return expectations().keySet().stream();
    }

    @ParameterizedTest
    @MethodSource("brokenFixtures")
    void shouldCatchEachBrokenFixtureWithTheRightRuleMessageAndPosition(String fixture) {
        List<Finding> found = linter.lint(bytes("lint/" + fixture), fixture);
        List<Expected> expected = expectations().get(fixture);
        assertEquals(expected.size(), found.size(), "findings for " + fixture + ": " + found);
        for (Expected e : expected) {
            assertTrue(found.stream().anyMatch(f -> f.line() == e.line() && f.column() == e.column()
                    && f.severity().label().equals(e.severity()) && f.rule().id().equals(e.rule())
                    && f.message().contains(e.message())), "expected " + e + " in " + found);
        }
    }

    @Test
    void shouldFindNothingInTheBlueprintHopToHopSpec() {
        assertEquals(List.of(), linter.lint(bytes("specs/blueprint-h2h.scxml"), "blueprint-h2h.scxml"));
    }

    @Test
    void shouldFindNothingInTheHierarchicalFixture() {
        assertEquals(List.of(), linter.lint(bytes("lint/clean-hierarchy.scxml"), "clean-hierarchy.scxml"));
    }

    @Test
    void shouldCoverEveryAnalysisRuleWithAFixture() {
        List<String> covered = expectations().values().stream().flatMap(List::stream).map(Expected::rule).toList();
        for (Rule r : new Rule[] {Rule.UNREACHABLE_STATE, Rule.LEAKING_STATE, Rule.UNHANDLED_TIMER,
            Rule.UNDECLARED_EVENT, Rule.UNUSED_EVENT, Rule.IMPOSSIBLE_HISTORY_READ, Rule.METAOPS_CONTRADICTION}) {
            assertTrue(covered.contains(r.id()), r.id() + " has a fixture");
        }
        assertFalse(covered.contains(Rule.INVALID.id()));
    }
}
