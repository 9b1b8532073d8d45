package io.statecast.messagestore.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Variables a subset {@code <assign>} keeps as Java values: whatever reads them afterwards,
 * Saxon or the subset, another assignment type or a deeper location, sees the same value.
 */
class ScalarStorageTest {

    private static List<String> run(String body) throws Exception {
        return run(body, ChartLimits.DEFAULTS);
    }

    private static List<String> run(String body, ChartLimits limits) throws Exception {
        Chart c = Charts.lenient(Charts.scxml("", body));
        Charts.Host host = new Charts.Host();
        Session s = new Session(c, host, limits, "t1");
        s.start();
        // the host also logs each error.execution with its message: the tests look at their own lines
        return host.log.stream().filter(l -> !l.startsWith("error: ")).toList();
    }

    @Test
    void shouldShowAScalarToAnExpressionOnlySaxonEvaluates() throws Exception {
        assertEquals(List.of("a: 3!", "b: 1", "c: 3", "d: 0.5"), run("""
                <datamodel><data id="n" expr="0"/><data id="h"/></datamodel>
                <state id="s"><onentry>
                  <assign location="$n" expr="$n + 1"/><assign location="$n" expr="$n + 1"/>
                  <assign location="$n" expr="$n + 1"/>
                  <log label="a" expr="$n || '!'"/>
                  <log label="b" expr="count($n/text())"/>
                  <log label="c" expr="$n/text()"/>
                  <assign location="$h" expr="1 div 2"/>
                  <log label="d" expr="data($h)"/>
                </onentry></state>"""));
    }

    @Test
    void shouldSeeAScalarThroughAnotherAssignTypeOrADeeperLocation() throws Exception {
        assertEquals(List.of("a: x5", "b: 7", "c: 7 on", "d: 8", "e: 2"), run("""
                <datamodel><data id="n" expr="2 + 3"/><data id="m" expr="0"/></datamodel>
                <state id="s"><onentry>
                  <assign location="$n" type="firstchild" expr="'x'"/>
                  <log label="a" expr="$n"/>
                  <assign location="$m" expr="6"/>
                  <assign location="$m/text()" type="replace" expr="'7'"/>
                  <log label="b" expr="$m"/>
                  <assign location="$m" type="addattribute" attr="flag" expr="'on'"/>
                  <log label="c" expr="concat($m, ' ', $m/@flag)"/>
                  <assign location="$m" expr="$m + 1"/>
                  <log label="d" expr="$m"/>
                  <log label="e" expr="count($m/@*)"/>
                </onentry></state>"""));
    }

    @Test
    void shouldKeepTheEmptySequenceAndStringsAsAnAssignmentOfTheDocumentWould() throws Exception {
        assertEquals(List.of("a: 0|", "b: 1|it's", "c: true", "d: 1.0E20", "e: false"), run("""
                <datamodel><data id="u" expr="5"/><data id="v"/></datamodel>
                <state id="s"><onentry>
                  <foreach array="$v/none" item="never"/>
                  <assign location="$u" expr="$never + 1"/>
                  <log label="a" expr="count($u/text()) || '|' || $u"/>
                  <assign location="$u" expr="concat('it', &quot;'s&quot;)"/>
                  <log label="b" expr="count($u/text()) || '|' || $u"/>
                  <assign location="$u" expr="$u = &quot;it's&quot;"/>
                  <log label="c" expr="$u"/>
                  <assign location="$u" expr="1e20"/>
                  <log label="d" expr="$u"/>
                  <log label="e" expr="$u &lt; 1e19"/>
                </onentry></state>"""));
    }

    @Test
    void shouldSendAScalarInANamelistAndRaiseErrorsOfTheSubset() throws Exception {
        assertEquals(List.of("got: 4", "err: error.execution", "n: 4"), run("""
                <datamodel><data id="n" expr="3"/><data id="z" expr="0"/></datamodel>
                <state id="s">
                  <onentry>
                    <assign location="$n" expr="$n + 1"/>
                    <send event="e" target="#_internal" namelist="$n"/>
                  </onentry>
                  <transition event="e" target="t"><log label="got" expr="$_event/data/data[@id='n']/data"/></transition>
                </state>
                <state id="t">
                  <onentry><assign location="$n" expr="string-length($n) idiv string-length('')"/></onentry>
                  <transition event="error.execution" target="f"><log label="err" expr="$_event/name"/></transition>
                </state>
                <final id="f"><onentry><log label="n" expr="$n"/></onentry></final>"""));
    }

    /**
     * A session whose expressions all stay in the subset makes no document, yet counts the nodes
     * one would hold: the bound on them falls on the same declaration or assignment as when an
     * expression only Saxon evaluates ({@code abs}) makes the document first.
     */
    @Test
    void shouldBoundTheDatamodelAlikeWithAndWithoutItsDocument() throws Exception {
        for (int max = 18; max <= 27; max++) {
            ChartLimits limits = new ChartLimits(10_000, 10_000, 10_000, 1_000, max);
            assertEquals(run(datamodelNear("abs(1)"), limits), run(datamodelNear("1"), limits), "maxDataNodes " + max);
        }
        // the document's root and system variables are 17 nodes, each variable its element and id
        // (23 declared), and each value its text
        assertEquals(List.of("a: 1", "b: 2", "c: 3"),
                run(datamodelNear("1"), new ChartLimits(10_000, 10_000, 10_000, 1_000, 26)));
        assertEquals(List.of("a: 1", "b: 2", "err: error.execution"),
                run(datamodelNear("1"), new ChartLimits(10_000, 10_000, 10_000, 1_000, 25)));
    }

    /** Three variables ({@code $a} initialised by {@code first}), then two subset assignments, each logged. */
    private static String datamodelNear(String first) {
        return """
                <datamodel><data id="a" expr="%s"/><data id="b"/><data id="c"/></datamodel>
                <state id="s">
                  <onentry>
                    <log label="a" expr="$a"/>
                    <assign location="$b" expr="2"/>
                    <log label="b" expr="$b"/>
                    <assign location="$c" expr="$a + $b"/>
                    <log label="c" expr="$c"/>
                  </onentry>
                  <transition event="error.execution" target="f"><log label="err" expr="$_event/name"/></transition>
                </state>
                <final id="f"/>""".formatted(first);
    }
}
