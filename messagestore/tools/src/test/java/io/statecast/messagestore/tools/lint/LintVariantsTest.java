package io.statecast.messagestore.tools.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecLoader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The analyses' edge cases, on small edits of the fixtures. */
class LintVariantsTest {

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

    private static String text(String resource) {
        return new String(LintFixturesTest.bytes(resource), StandardCharsets.UTF_8);
    }

    private static List<Finding> lint(String spec) {
        return linter.lint(spec.getBytes(StandardCharsets.UTF_8), "variant.scxml");
    }

    private static List<Finding> only(List<Finding> all, Rule rule) {
        return all.stream().filter(f -> f.rule() == rule).toList();
    }

    private static String replaceOnce(String text, String from, String to) {
        int at = text.indexOf(from);
        assertTrue(at >= 0, "fixture contains " + from);
        return text.substring(0, at) + to + text.substring(at + from.length());
    }

    @Test
    void shouldCountTheHandlerInAnotherRegionOfAParallelState() {
        // Without the listening region's transition on keepalive, the timer set by the beating
        // region has no handler in any state where it can be pending.
        String spec = replaceOnce(text("lint/clean-hierarchy.scxml"), "<transition event=\"keepalive\">",
                "<transition event=\"lifetime\">");
        List<Finding> timers = only(lint(spec), Rule.UNHANDLED_TIMER);
        assertTrue(timers.stream().anyMatch(f -> f.line() == 43 && f.message().contains(
                "timer 1 set here can expire only in states beating, listening, where no transition is on "
                        + "keepalive")), timers.toString());
    }

    @Test
    void shouldCountTheCompoundStatesTransitionsInItsChildren() {
        // session's transition on lifetime handles the timer its onentry sets, in every child.
        List<Finding> found = lint(text("lint/clean-hierarchy.scxml"));
        assertEquals(List.of(), found);
        String noEnd = replaceOnce(replaceOnce(text("lint/clean-hierarchy.scxml"),
                "<transition event=\"lifetime\" target=\"closed\"/>", "<transition event=\"lifetime\"/>"),
                "<transition event=\"bye\" target=\"closed\"/>", "<transition event=\"bye\"/>");
        List<Finding> leaks = only(lint(noEnd), Rule.LEAKING_STATE);
        assertEquals(1, leaks.size(), leaks.toString());
        assertTrue(leaks.get(0).message().startsWith("no run of this spec ever ends its instance: from the initial "
                + "state session"), leaks.toString());
    }

    @Test
    void shouldReportATimerCancelledInTheStepThatSetsIt() {
        String spec = replaceOnce(text("lint/unhandled-timer.scxml"), "      <action:execute name=\"setTimer\"/>\n",
                "      <action:execute name=\"setTimer\"/>\n      <action:create name=\"cancelTimer\"/>\n"
                        + "      <action:set name=\"cancelTimer\" field=\"Timer/TimerIdentifier\" value=\"2\"/>\n"
                        + "      <action:execute name=\"cancelTimer\"/>\n");
        List<Finding> timers = only(lint(spec), Rule.UNHANDLED_TIMER);
        assertEquals(1, timers.size(), timers.toString());
        assertTrue(timers.get(0).message().contains("setTimer(2) never expires: every step that sets it also cancels "
                + "or re-sets it, or ends the instance"), timers.toString());
    }

    @Test
    void shouldAcceptATimerHandledWhereItCanExpire() {
        // Moving the transition on retry into waiting fixes the fixture.
        String spec = text("lint/unhandled-timer.scxml");
        String retry = spec.substring(spec.indexOf("    <transition event=\"retry\">"),
                spec.indexOf("  </state>\n  <state id=\"waiting\">"));
        spec = spec.replace(retry, "").replace("  <state id=\"waiting\">\n", "  <state id=\"waiting\">\n" + retry);
        assertEquals(List.of(), lint(spec));
    }

    @Test
    void shouldAcceptReadingATimerEventAfterItsTimerCouldExpire() {
        // The read in waiting's transition on acktimeout is fine; only the one before the timer is set is not.
        List<Finding> reads = only(lint(text("lint/impossible-history-read.scxml")), Rule.IMPOSSIBLE_HISTORY_READ);
        assertTrue(reads.stream().noneMatch(f -> f.line() == 37), reads.toString());
    }

    @Test
    void shouldReportReadingACompositeEventFromTheHistory() {
        String spec = replaceOnce(text("specs/blueprint-h2h.scxml"),
                "xpath=\"/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message\"/>\n      <action:set "
                        + "name=\"sendDataMessage\"",
                "xpath=\"/HistoryOfEvents/Event[@name='allh2hackmessagesreceived'][last()]/Message\"/>\n      "
                        + "<action:set name=\"sendDataMessage\"");
        List<Finding> reads = only(lint(spec), Rule.IMPOSSIBLE_HISTORY_READ);
        assertEquals(1, reads.size(), reads.toString());
        assertTrue(reads.get(0).message().contains("reads history event 'allh2hackmessagesreceived', a composite "
                + "event; the history records basic events only"), reads.toString());
    }

    @Test
    void shouldNotReportADeclaredMessageEventReadAnywhere() {
        // Messages arrive whenever they like: reading one in the initial state's entry is possible.
        String spec = replaceOnce(text("lint/metaops-duplicate-forward.scxml"),
                "  <state id=\"idle\">\n",
                "  <state id=\"idle\">\n    <onentry>\n      <action:create name=\"toApplication\"/>\n"
                        + "      <action:set name=\"toApplication\" field=\"Message\" "
                        + "xpath=\"/HistoryOfEvents/Event[@name='payload'][last()]/Message\"/>\n"
                        + "      <action:execute name=\"toApplication\"/>\n    </onentry>\n");
        assertEquals(List.of(), only(lint(spec), Rule.IMPOSSIBLE_HISTORY_READ));
    }

    @Test
    void shouldReportEveryInstanceLeakingOnceWhenNothingEverEnds() {
        List<Finding> found = linter.lint(LintFixturesTest.bytes("specs/minimal.scxml"), "minimal.scxml");
        assertEquals(1, found.size(), found.toString());
        assertEquals(Rule.LEAKING_STATE, found.get(0).rule());
        assertEquals(23, found.get(0).line());
        assertEquals(3, found.get(0).column());
    }

    @Test
    void shouldNotFlagAStoreForwardingServiceThatForwards() {
        String spec = replaceOnce(text("lint/metaops-duplicate-forward.scxml"), "<data name=\"service\">",
                "<data name=\"metaops\"><messageStoreWillForwardMessage>true</messageStoreWillForwardMessage></data>\n"
                        + "    <data name=\"service\">");
        assertEquals(List.of(), lint(spec));
    }
}
