package io.statecast.messagestore.tools.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.Problem.Severity;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code spec check} on the test specs at depth 8 with 3 peers: the deliberately broken copies of
 * {@code check/clean-ack.scxml} are each caught by the right rule with a shortest trace, the clean
 * one (a retransmission bounded by a maximum timer) is clean, and the blueprint's hop-to-hop spec
 * and the ack test service get what they deserve.
 */
class SpecCheckerTest {

    private static SpecLoader loader;
    private static SpecChecker checker;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
        checker = new SpecChecker(loader);
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    static byte[] bytes(String resource) {
        try (InputStream in = SpecCheckerTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is on the test classpath");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CheckReport check(String resource) {
        CheckReport r = checker.check(bytes(resource), resource, CheckOptions.defaults());
        System.out.println(r.summary()); // the numbers for the record; never asserted on time
        return r;
    }

    private static CheckFinding only(CheckReport r) {
        assertEquals(1, r.findings().size(), r.format());
        return r.findings().get(0);
    }

    @Test
    void shouldFindNothingInABoundedRetransmission() {
        CheckReport r = check("check/clean-ack.scxml");
        assertEquals(List.of(), r.findings(), r.format());
        assertEquals(CheckReport.CLEAN, r.exitStatus(true));
        assertTrue(r.stats().states() > 100 && r.stats().transitions() > r.stats().states(), r.summary());
        assertEquals(9, r.stats().inputs(), "3 local sends (one per destination peer), data and ack from 3 peers");
    }

    @Test
    void shouldCatchALeakingStateWithAShortestTrace() {
        CheckReport r = check("check/leaking-state.scxml");
        CheckFinding f = only(r);
        assertEquals(CheckRule.LEAKING_STATE, f.rule());
        assertEquals(Severity.ERROR, f.severity());
        assertEquals(89, f.line());
        assertEquals(3, f.column());
        assertTrue(f.message().startsWith("state stalled is stuck: no input leads out of it and no timer is pending"),
                f.message());
        assertEquals(List.of("sent+data from local to parent", "timer 3 expires"), f.trace().inputs());
        assertEquals(List.of("idle", "waiting", "stalled"), f.trace().states());
        assertEquals(-1, f.trace().cycleStart());
        assertEquals(CheckReport.ERRORS, r.exitStatus(false));
    }

    @Test
    void shouldCatchAnUnhandledTimerWithAShortestTrace() {
        CheckReport r = check("check/unhandled-timer.scxml");
        CheckFinding f = only(r);
        assertEquals(CheckRule.UNHANDLED_TIMER, f.rule());
        assertEquals(Severity.WARNING, f.severity());
        assertEquals(47, f.line(), "the setTimer that set it");
        assertEquals("timer 3 (giveup) can expire in done, where no transition reacts to it: the expiry is silently "
                + "lost", f.message());
        assertEquals(List.of("sent+data from local to parent", "ack from parent", "timer 3 expires"),
                f.trace().inputs());
        assertEquals(List.of("idle", "waiting", "done", "done"), f.trace().states());
        Trace.Step acked = f.trace().steps().get(2);
        assertEquals(List.of("ack (ignored)", "acked"), acked.events(), "the composite event fired on the ack");
        assertEquals(List.of(2, 3), acked.timers());
        assertEquals(List.of("giveup (ignored)"), f.trace().steps().get(3).events());
        assertEquals(CheckReport.CLEAN, r.exitStatus(false), "warnings alone pass");
        assertEquals(CheckReport.ERRORS, r.exitStatus(true), "unless warnings count as errors");
    }

    @Test
    void shouldCatchASendLoopWithItsCycle() {
        CheckReport r = check("check/send-loop.scxml");
        CheckFinding f = only(r);
        assertEquals(CheckRule.SEND_STORM, f.rule());
        assertEquals(Severity.ERROR, f.severity());
        assertEquals(76, f.line(), "the sendDataMessage of the cycle");
        assertTrue(f.message().startsWith("send storm: in waiting the expiry of timer 1 alone repeats for ever, "
                + "calling sendDataMessage (line 76) every round with no new input; no pending timer bounds the "
                + "cycle"), f.message());
        assertEquals(List.of("sent+data from local to parent", "timer 1 expires"), f.trace().inputs());
        assertEquals(2, f.trace().cycleStart());
        Trace.Step round = f.trace().steps().get(2);
        assertEquals(List.of("sendDataMessage (unicast to parent)", "setTimer 1", "setTimer 3"), round.calls());
        assertEquals(List.of(1, 3), round.timers());
        assertTrue(f.format().contains("cycle> 2. timer 1 expires [retry] -> waiting"), f.format());
    }

    @Test
    void shouldFindTheUnboundedRetransmissionOfTheAckTestService() {
        CheckReport r = check("specs/ack-service.scxml");
        CheckFinding f = only(r);
        assertEquals(CheckRule.SEND_STORM, f.rule());
        assertEquals(List.of("sent+data from local to parent", "timer 1 expires"), f.trace().inputs());
        assertEquals(List.of("idle", "waiting", "waiting"), f.trace().states());
        assertEquals(2, f.trace().cycleStart());
    }

    @Test
    void shouldFindNoErrorInTheBlueprintsHopToHopService() {
        CheckReport r = check("specs/blueprint-h2h.scxml");
        assertEquals(0, r.errors(), r.format());
        Set<String> warned = new TreeSet<>();
        for (CheckFinding f : r.findings()) {
            assertEquals(CheckRule.UNHANDLED_TIMER, f.rule(), f.format());
            warned.add(f.message().substring(0, f.message().indexOf(" can expire")));
        }
        // the blueprint never cancels finaldelete, and a Reset leaves the ACK and NACK timers running
        assertEquals(Set.of("timer 1 (finaldelete)", "timer 2 (nacktimeout)", "timer 3 (acktimeout)",
                "timer 4 (maxacktimeout)", "timer 5 (msgtimeout)", "timer 8 (maxnacktimeout)"), warned, r.format());
        CheckFinding ack = r.findings().stream().filter(f -> f.message().startsWith("timer 3 ")).findFirst()
                .orElseThrow();
        assertEquals(List.of("payloadmessage from parent (unicast)", "resetmessage from parent", "timer 3 expires"),
                ack.trace().inputs());
        assertEquals(List.of("init", "waitack", "reset", "reset"), ack.trace().states());
        assertTrue(r.stats().states() > 100, r.summary());
    }

    @Test
    void shouldReportASpecThatNeverEndsOnceAndItsStorm() {
        CheckReport r = check("specs/loop-sender.scxml");
        assertEquals(2, r.findings().size(), r.format());
        CheckFinding leak = r.findings().get(0);
        assertEquals(CheckRule.LEAKING_STATE, leak.rule());
        assertTrue(leak.message().startsWith("no run of this spec ever ends its instance"), leak.message());
        assertEquals(List.of(), leak.trace().inputs());
        CheckFinding storm = r.findings().get(1);
        assertEquals(CheckRule.SEND_STORM, storm.rule());
        assertEquals(List.of("kick from parent", "timer 1 expires"), storm.trace().inputs());
        assertTrue(r.stats().complete(), r.summary());
    }

    @Test
    void shouldNotCallALeakWhatLiesBeyondTheDepthBound() {
        CheckReport r = checker.check(bytes("check/clean-ack.scxml"), "clean-ack", CheckOptions.defaults()
                .withDepth(1));
        assertEquals(List.of(), r.findings(), r.format());
        assertFalse(r.stats().complete());
        assertTrue(r.stats().undecided() > 0, r.summary());
        assertTrue(r.summary().contains("states whose termination is undecided within the bound"), r.summary());
    }

    @Test
    void shouldReportEventsNeverHandledWhenTheStateSpaceIsExhausted() {
        CheckReport r = check("check/never-handled.scxml");
        assertTrue(r.stats().complete(), r.summary());
        assertEquals(2, r.findings().size(), r.format());
        CheckFinding pong = r.findings().get(0);
        assertEquals(CheckRule.NEVER_HANDLED, pong.rule());
        assertEquals(19, pong.line());
        assertEquals("message event pong is waited for by the transitions at line 47, but in no reachable state "
                + "does it arrive where one of them is active", pong.message());
        CheckFinding odd = r.findings().get(1);
        assertEquals(CheckRule.COMPOSITE_NEVER_TRUE, odd.rule());
        assertEquals(23, odd.line());
        assertTrue(odd.message().startsWith("composite event odd never becomes true"), odd.message());
    }

    @Test
    void shouldKeepQuietAboutNeverHandledEventsWhenTheBoundCutsTheSearch() {
        CheckReport r = checker.check(bytes("check/never-handled.scxml"), "never", CheckOptions.defaults()
                .withDepth(1));
        assertFalse(r.stats().complete(), r.summary());
        assertEquals(List.of(), r.findings(), r.format());
    }

    @Test
    void shouldTellMoreIdenticalInputsApartWithAHigherHistoryCap() {
        CheckOptions onePeer = CheckOptions.defaults().withPeers(1);
        CheckReport merged = checker.check(bytes("check/counting.scxml"), "counting", onePeer);
        assertEquals(1, merged.findings().size(), merged.format());
        assertEquals(CheckRule.COMPOSITE_NEVER_TRUE, merged.findings().get(0).rule(), "the documented limit");
        CheckReport apart = checker.check(bytes("check/counting.scxml"), "counting", onePeer.withHistoryCap(2));
        assertEquals(List.of(), apart.findings(), apart.format());
        assertTrue(apart.stats().complete(), apart.summary());
    }

    @Test
    void shouldCountExactlyWhatACountingQueryReads() {
        String counting = new String(bytes("check/counting.scxml"), StandardCharsets.UTF_8)
                .replace("exists(/HistoryOfEvents/Event[@name='hello'][3])",
                        "count(/HistoryOfEvents/Event[@name='hello']) ge 3");
        CheckReport r = checker.check(counting.getBytes(StandardCharsets.UTF_8), "count",
                CheckOptions.defaults().withPeers(1));
        assertEquals(List.of(), r.findings(), r.format());
        assertTrue(r.stats().complete(), r.summary());
    }

    @Test
    void shouldRefuseASpecThatDoesNotLoad() {
        CheckReport r = checker.check("<scxml/>".getBytes(StandardCharsets.UTF_8), "bad.scxml",
                CheckOptions.defaults());
        assertEquals(CheckReport.ERRORS, r.exitStatus(false), "a spec that does not load fails the check");
        assertFalse(r.findings().isEmpty());
        assertTrue(r.findings().stream().allMatch(f -> f.rule() == CheckRule.INVALID), r.format());
    }

    @Test
    void shouldRefuseBoundsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> CheckOptions.defaults().withDepth(0));
        assertThrows(IllegalArgumentException.class, () -> CheckOptions.defaults().withDepth(65));
        assertThrows(IllegalArgumentException.class, () -> CheckOptions.defaults().withPeers(0));
        assertThrows(IllegalArgumentException.class, () -> CheckOptions.defaults().withPeers(17));
        assertThrows(IllegalArgumentException.class, () -> CheckOptions.defaults().withHistoryCap(0));
    }

    @Test
    void shouldStopAtTheStateBoundAndSaySo() {
        CheckReport r = checker.check(bytes("specs/blueprint-h2h.scxml"), "h2h", CheckOptions.defaults()
                .withMaxStates(50));
        assertEquals("states", r.stats().cut());
        assertTrue(r.summary().contains("stopped early (states limit)"), r.summary());
        assertTrue(r.stats().states() <= 50 + 64, r.summary());
    }

    @Test
    void shouldExploreOrderingLogicOfAFlowWithSeveralMessageIds() {
        // one MessageID per flow made "next" and "hole" composite-never-true; a flow now gets three
        CheckReport r = check("check/flow-ordering.scxml");
        assertTrue(r.stats().complete(), r.summary());
        assertEquals(List.of(), r.findings(), r.format());
        assertEquals(9, r.stats().inputs(), "three peers times three MessageIDs: " + r.summary());
    }

    @Test
    void shouldNameACountingParameterBeyondTheDepthAndCheckWithASmallerOne() {
        String resource = "check/count-threshold.scxml";
        CheckReport byDefault = check(resource);
        CheckFinding f = only(byDefault);
        assertEquals(CheckRule.COMPOSITE_NEVER_TRUE, f.rule());
        assertTrue(f.message().contains("parameter Threshold = 20") && f.message().contains("-P Threshold="),
                f.message());
        CheckReport smaller = checker.check(bytes(resource), resource, CheckOptions.defaults(),
                java.util.Map.of("Threshold", "3"));
        assertEquals(List.of(), smaller.findings(), smaller.format());
        CheckReport unknown = checker.check(bytes(resource), resource, CheckOptions.defaults(),
                java.util.Map.of("Nope", "3"));
        assertEquals(CheckRule.INVALID, only(unknown).rule(), unknown.format());
    }
}
