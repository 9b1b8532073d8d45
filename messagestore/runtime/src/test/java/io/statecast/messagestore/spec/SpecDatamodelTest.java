package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Service specs with the SCXML XPath datamodel: what loads, and what is refused where. */
class SpecDatamodelTest {

    private static SpecLoader loader;

    @BeforeAll
    static void open() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void close() {
        loader.close();
    }

    /** A spec whose state {@code s} holds {@code content} (line 14 is its first line). */
    private static byte[] spec(String rootData, String content) {
        return ("""
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initial="s" datamodel="xpath">
                  <datamodel>
                    <data name="service">
                      <ServiceName>t</ServiceName><ServiceID>41</ServiceID><DeliveryMode>multicast</DeliveryMode>
                    </data>
                    <data name="events">
                      <Basic><Event name="msg"><Message><MessageKind>data</MessageKind></Message></Event></Basic>
                    </data>
                    <data id="n" expr="0"/>
                    """ + rootData + """
                  </datamodel>
                  <state id="s">
                """ + content + """
                  </state>
                  <final id="end"/>
                </scxml>
                """).getBytes(StandardCharsets.UTF_8);
    }

    private static String errors(byte[] bytes) {
        return loader.validate(bytes, "t.scxml").stream().filter(Problem::isError)
                .map(p -> p.format("t.scxml")).collect(Collectors.joining("\n"));
    }

    @Test
    void shouldLoadConditionsAssignmentsAndTheStandardContent() throws Exception {
        byte[] ok = spec("", """
                    <onentry><send id="t" event="tick" delay="1s"/></onentry>
                    <transition event="msg" cond="$n &lt; 3">
                      <assign location="$n" expr="$n + 1"/>
                      <if cond="$n = 2"><raise event="half"/><elseif cond="$n = 3"/><log expr="'three'"/></if>
                      <foreach array="1 to 3" item="i"><log expr="$i"/></foreach>
                    </transition>
                    <transition event="half tick"/>
                    <transition cond="$n &gt;= 3" target="end"/>
                """);
        assertEquals("", errors(ok));
        ServiceSpec s = loader.load(ok, "ok.scxml");
        assertTrue(s.chart().standardContent().size() >= 5, s.chart().standardContent().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "undeclared variable | <onentry><assign location='$nope' expr='1'/></onentry>      | <assign location='$nope'> does not start at a declared variable",
        "script              | <onentry><script>x</script></onentry>                        | <script> is not supported",
        "invoke              | <invoke src='x.scxml'/>                                      | <invoke> is not supported",
        "unbounded foreach   | <onentry><foreach array='1 to $n' item='i'/></onentry>       | '1 to $n' is refused: a range 'a to b' needs literal bounds",
        "not an expression   | <transition event='msg' cond='$n +'/>                        | '$n +' does not compile",
        "unknown event       | <transition event='nosuch'/>                                 | transition on undeclared event 'nosuch'",
        "system variable     | <onentry><assign location='$_sessionid' expr='1'/></onentry> | <assign location='$_sessionid'> does not start at a declared variable",
    })
    void shouldRefuseWhatCannotRunSafelyNamingTheLine(String what, String content, String expected) {
        String all = errors(spec("", "    " + content.replace('\'', '"') + "\n"));
        assertTrue(all.contains("t.scxml:13") && all.contains(expected.strip()), what + ":\n" + all);
    }

    @Test
    void shouldRefuseAnExpressionThatReadsAFile() {
        String all = errors(spec("", "    <transition event=\"msg\" cond=\"exists(doc('file:///etc/passwd'))\"/>\n"));
        assertTrue(all.contains("t.scxml:13") && all.contains("fn:doc() is not allowed"), all);
    }

    @Test
    void shouldRefuseDataFromOutsideAndSystemNames() {
        String src = errors(spec("<data id=\"x\" src=\"file:///etc/passwd\"/>", ""));
        assertTrue(src.contains("t.scxml:11") && src.contains("src on <data> would load external content"), src);
        String sys = errors(spec("<data id=\"_event\"/>", ""));
        assertTrue(sys.contains("t.scxml:11") && sys.contains("system variables"), sys);
    }

    @Test
    void shouldAcceptEventsTheSpecRaisesAndThePlatformsOwn() {
        String all = errors(spec("", """
                    <onentry><raise event="go.now"/></onentry>
                    <transition event="go error.execution done.state.s"/>
                """));
        assertEquals("", all);
        List<Problem> warnings = loader.validate(spec("", "<transition event='msg'/>"), "t.scxml");
        assertTrue(warnings.stream().noneMatch(Problem::isError), warnings.toString());
    }
}
