package io.statecast.messagestore.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTest {

    private static Session started(Chart chart, Charts.Host host) {
        Session s = new Session(chart, host, ChartLimits.DEFAULTS, "t1");
        s.start();
        return s;
    }

    @Test
    void shouldCountWithAssignAndGuardOnTheDatamodel() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <datamodel><data id="n" expr="0"/></datamodel>
                <state id="counting">
                  <transition event="tick" cond="$n &lt; 2"><assign location="$n" expr="$n + 1"/></transition>
                  <transition event="tick" target="done"/>
                </state>
                <final id="done"><onentry><log label="n" expr="$n"/></onentry></final>"""));
        Charts.Host host = new Charts.Host();
        Session s = started(c, host);
        s.process(ChartEvent.external("tick"));
        s.process(ChartEvent.external("tick"));
        assertEquals(List.of("counting"), s.activeStates());
        s.process(ChartEvent.external("tick"));
        assertFalse(s.running());
        assertEquals("done", s.finalState());
        assertEquals(List.of("n: 2"), host.log);
    }

    @Test
    void shouldDeliverADelayedSendOnTheHostsTimerAndCancelIt() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <state id="a">
                  <onentry>
                    <send event="late" delay="200ms"/>
                    <send id="never" event="cancelled" delay="100ms"/>
                    <cancel sendid="never"/>
                  </onentry>
                  <transition event="cancelled" target="wrong"/>
                  <transition event="late" target="b"/>
                </state>
                <state id="b"/>
                <final id="wrong"/>"""));
        Charts.Host host = new Charts.Host();
        Session s = started(c, host);
        assertEquals(1, host.pending());
        host.advance(s, 199);
        assertEquals(List.of("a"), s.activeStates());
        host.advance(s, 1);
        assertEquals(List.of("b"), s.activeStates());
    }

    @Test
    void shouldAnswerInForTheActiveStatesOfAParallel() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <parallel id="p">
                  <state id="x" initial="x1"><state id="x1"><transition event="go" target="x2"/></state><state id="x2"/></state>
                  <state id="y"><state id="y1"><transition cond="In('x2')" target="y2"/></state><state id="y2"/></state>
                </parallel>"""));
        Session s = started(c, new Charts.Host());
        assertEquals(List.of("p", "x", "x1", "y", "y1"), s.activeStates());
        s.process(ChartEvent.external("go"));
        assertEquals(List.of("p", "x", "x2", "y", "y2"), s.activeStates());
    }

    @Test
    void shouldReturnToTheRememberedStateThroughDeepHistory() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <state id="work">
                  <history id="h" type="deep"><transition target="a1"/></history>
                  <state id="a"><state id="a1"><transition event="next" target="a2"/></state><state id="a2"/></state>
                  <transition event="pause" target="paused"/>
                </state>
                <state id="paused"><transition event="resume" target="h"/></state>"""));
        Session s = started(c, new Charts.Host());
        s.process(ChartEvent.external("next"));
        s.process(ChartEvent.external("pause"));
        assertEquals(List.of("paused"), s.activeStates());
        s.process(ChartEvent.external("resume"));
        assertEquals(List.of("work", "a", "a2"), s.activeStates());
    }

    @Test
    void shouldStopAChartThatLoopsWithoutWaitingForAnEvent() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <state id="a"><transition target="b"/></state>
                <state id="b"><transition target="a"/></state>"""));
        Session s = new Session(c, new Charts.Host(), new ChartLimits(500, 100, 100, 10, 1000), "loop");
        s.start();
        assertFalse(s.running());
        assertNotNull(s.stopReason());
        assertTrue(s.stopReason().contains("500 microsteps"), s.stopReason());
        assertEquals(ChartLimit.MICROSTEPS, s.stoppedBy());
        assertEquals(1, s.stoppedIn().size(), "the state it was in when stopped: " + s.stoppedIn());
        assertEquals(List.of(), s.activeStates(), "a stopped session has exited its states");
    }

    @Test
    void shouldStopAChartWhoseRaisesOverflowTheQueuesAndCancelItsDelayedSends() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <datamodel><data id="i"/></datamodel>
                <state id="a">
                  <onentry><send event="late" delay="1s"/></onentry>
                  <transition event="go" target="b"/>
                </state>
                <state id="b">
                  <onentry><foreach array="1 to 50" item="i"><raise event="more"/></foreach></onentry>
                  <transition event="more"/>
                </state>"""));
        Charts.Host host = new Charts.Host();
        Session s = new Session(c, host, new ChartLimits(500, 20, 100, 10, 1000), "q");
        s.start();
        assertEquals(1, host.pending());
        assertEquals(null, s.stoppedBy());
        s.process(ChartEvent.external("go"));
        assertFalse(s.running());
        assertEquals(ChartLimit.QUEUED_EVENTS, s.stoppedBy());
        assertEquals(List.of("b"), s.stoppedIn());
        assertEquals(0, host.pending(), "the delayed send was cancelled");
    }

    @Test
    void shouldNotCountAFinalStateAsALimitStop() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", "<state id=\"a\"><transition event=\"go\" target=\"f\"/></state><final id=\"f\"/>"));
        Session s = started(c, new Charts.Host());
        s.process(ChartEvent.external("go"));
        assertFalse(s.running());
        assertEquals(null, s.stoppedBy());
        assertEquals(List.of(), s.stoppedIn());
    }

    @Test
    void shouldRaiseAnErrorForAForeachOverMoreItemsThanTheLimit() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <datamodel><data id="i"/></datamodel>
                <state id="a">
                  <onentry><foreach array="1 to 50" item="i"><log expr="$i"/></foreach></onentry>
                  <transition event="error.execution" target="refused"/>
                </state>
                <state id="refused"/>"""));
        Charts.Host host = new Charts.Host();
        Session s = new Session(c, host, new ChartLimits(500, 100, 10, 10, 1000), "f");
        s.start();
        assertEquals(List.of("refused"), s.activeStates());
        assertTrue(host.log.stream().noneMatch(l -> l.startsWith(": ")), host.log.toString());
    }

    @Test
    void shouldRaiseErrorExecutionForAnExpressionThatDoesNotCompileWhenLenient() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <state id="a">
                  <onentry><log expr="1 +"/></onentry>
                  <transition event="error.execution" target="b"/>
                </state>
                <state id="b"/>"""));
        Session s = started(c, new Charts.Host());
        assertEquals(List.of("b"), s.activeStates());
    }

    @Test
    void shouldRefuseWhatAStrictCompileCannotRunNamingTheLine() {
        String text = Charts.scxml("", """
                <datamodel><data id="x"/></datamodel>
                <state id="a">
                  <onentry>
                    <assign location="$undeclared" expr="1"/>
                    <log expr="1 +"/>
                  </onentry>
                  <invoke src="child.scxml"/>
                </state>""");
        SpecException e = assertThrows(SpecException.class, () -> Charts.compile(text, ChartOptions.STRICT));
        String all = e.problems().toString();
        assertTrue(e.problems().stream().anyMatch(p -> p.line() == 5 && p.message().contains("$undeclared")), all);
        assertTrue(e.problems().stream().anyMatch(p -> p.line() == 6 && p.message().contains("does not compile")), all);
        assertTrue(e.problems().stream().anyMatch(p -> p.line() == 8 && p.message().contains("<invoke>")), all);
    }

    @Test
    void shouldRefuseASystemVariableAsAnAssignLocation() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <state id="a">
                  <onentry><assign location="$_sessionid" expr="'mine'"/></onentry>
                  <transition event="error.execution" cond="$_sessionid = 'ro'" target="b"/>
                </state>
                <state id="b"/>"""));
        Session s = new Session(c, new Charts.Host(), ChartLimits.DEFAULTS, "ro");
        s.start();
        assertEquals(List.of("b"), s.activeStates());
    }

    @Test
    void shouldRefuseAnAssignThatWouldGrowTheDatamodelPastItsBoundAndKeepWhatItHeld() throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", """
                <datamodel><data id="x"><a xmlns=""/><a xmlns=""/></data></datamodel>
                <state id="grow">
                  <transition event="double"><assign location="$x" expr="($x/*, $x/*)"/></transition>
                  <transition event="error.execution" target="stopped"/>
                </state>
                <state id="stopped"><transition event="count" cond="count($x/*) = 32" target="kept"/></state>
                <state id="kept"/>"""));
        Session s = new Session(c, new Charts.Host(), new ChartLimits(500, 100, 10, 10, 100), "g");
        s.start();
        for (int i = 0; i < 10 && s.activeStates().contains("grow"); i++) {
            s.process(ChartEvent.external("double"));
        }
        assertEquals(List.of("stopped"), s.activeStates());
        s.process(ChartEvent.external("count"));
        assertEquals(List.of("kept"), s.activeStates(), "the last assignment within the bound is kept");
    }

    @Test
    void shouldKeepTheConfigurationOfAChartWithMoreStatesThanOneWordHolds() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            body.append("<state id=\"p").append(i).append("\" initial=\"c").append(i).append("\">")
                    .append("<state id=\"c").append(i).append("\"><transition event=\"next\" target=\"")
                    .append(i == 69 ? "end" : "p" + (i + 1)).append("\"/></state></state>");
        }
        body.append("<final id=\"end\"/>");
        Chart c = Charts.lenient(Charts.scxml("", body.toString()));
        Session s = started(c, new Charts.Host());
        for (int i = 0; i < 69; i++) {
            assertEquals(List.of("p" + i, "c" + i), s.activeStates(), "before event " + i);
            s.process(ChartEvent.external("next"));
        }
        assertEquals(List.of("p69", "c69"), s.activeStates());
        assertTrue(s.isActive("c69") && !s.isActive("c0"));
        s.process(ChartEvent.external("next"));
        assertEquals("end", s.finalState());
    }
}
