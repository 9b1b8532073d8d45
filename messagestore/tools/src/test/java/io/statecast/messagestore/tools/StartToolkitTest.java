package io.statecast.messagestore.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.check.CheckFinding;
import io.statecast.messagestore.tools.check.CheckOptions;
import io.statecast.messagestore.tools.check.CheckReport;
import io.statecast.messagestore.tools.check.CheckRule;
import io.statecast.messagestore.tools.check.SpecChecker;
import io.statecast.messagestore.tools.lint.Finding;
import io.statecast.messagestore.tools.lint.Linter;
import io.statecast.messagestore.tools.lint.Rule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lint and check on a {@code <Start>} spec: the node's own instance (reached only through the
 * start event) is meant to live and beat as long as its service is deployed, so its states are no
 * leaks and its timer-paced loop no storm; the same states reached by a message still are, and a
 * zero-delay loop still is a storm.
 */
class StartToolkitTest {

    private static final String TICKER = "specs/deploy-ticker.scxml";
    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    private static String text() throws IOException {
        try (InputStream in = StartToolkitTest.class.getClassLoader().getResourceAsStream(TICKER)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static CheckReport check(String spec) {
        return new SpecChecker(loader).check(spec.getBytes(StandardCharsets.UTF_8), "ticker.scxml", CheckOptions.defaults());
    }

    @Test
    void shouldExemptTheOwnInstancesLoopButNotTheStatesMessagesReach() throws Exception {
        String spec = text();
        assertEquals(Set.of("ticking"), SpecGraph.of(loader.load(spec.getBytes(StandardCharsets.UTF_8), "t"))
                .reachableOnlyByStart());
        List<Finding> lint = new Linter(loader).lint(spec.getBytes(StandardCharsets.UTF_8), "ticker.scxml");
        List<Finding> leaks = lint.stream().filter(f -> f.rule() == Rule.LEAKING_STATE).toList();
        assertEquals(1, leaks.size(), lint.toString());
        // listening (a flow a beat created) never ends, so idle cannot either: one finding, at idle
        assertTrue(leaks.get(0).message().contains("no run of this spec ever ends"), leaks.toString());
        // with listening ending, nothing is left to report: ticking is the node's own loop
        String ending = spec.replace("<state id=\"listening\">", "<state id=\"listening\"><transition event=\"tick\">"
                + "<action:create name=\"terminate\"/><action:execute name=\"terminate\"/></transition>");
        List<Finding> clean = new Linter(loader).lint(ending.getBytes(StandardCharsets.UTF_8), "ticker.scxml");
        assertEquals(List.of(), clean.stream().filter(f -> f.rule() == Rule.LEAKING_STATE).toList(), clean.toString());
        CheckReport r = check(spec);
        assertTrue(r.findings().stream().noneMatch(f -> f.rule() == CheckRule.SEND_STORM), r.format());
        List<CheckFinding> checked = r.findings().stream().filter(f -> f.rule() == CheckRule.LEAKING_STATE).toList();
        assertEquals(1, checked.size(), r.format());
        assertTrue(checked.get(0).message().contains("no run of this spec ever ends"), r.format());
        CheckReport endingChecked = check(spec.replace("<state id=\"listening\">\n    <transition event=\"beat\">",
                "<state id=\"listening\">\n    <transition event=\"beat\" target=\"end\">")
                .replace("</scxml>", "<final id=\"end\"/></scxml>"));
        assertTrue(endingChecked.findings().stream().noneMatch(f -> f.rule() == CheckRule.LEAKING_STATE
                || f.rule() == CheckRule.SEND_STORM), endingChecked.format());
    }

    @Test
    void shouldStillCallAZeroDelayLoopOfTheOwnInstanceAStorm() throws Exception {
        String spec = text().replace("param=\"Interval\"", "value=\"0\"");
        CheckReport r = check(spec);
        assertTrue(r.findings().stream().anyMatch(f -> f.rule() == CheckRule.SEND_STORM), r.format());
    }

    @Test
    void shouldReportTheOwnLoopWhenAMessageCanReachItToo() throws Exception {
        // a beat now also starts the loop: an instance a message created would beat for ever
        String spec = text().replace("<transition event=\"beat\" target=\"listening\">",
                "<transition event=\"beat\" target=\"ticking\">");
        CheckReport r = check(spec);
        assertTrue(r.findings().stream().anyMatch(f -> f.rule() == CheckRule.SEND_STORM
                || f.rule() == CheckRule.LEAKING_STATE && f.message().contains("ticking")), r.format());
    }
}
