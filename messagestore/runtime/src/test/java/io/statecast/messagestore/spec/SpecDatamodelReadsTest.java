package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.event.CompiledExpression;
import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.DatamodelItem;
import io.statecast.messagestore.event.DatamodelRef;
import io.statecast.messagestore.event.DatamodelValues;
import io.statecast.messagestore.event.History;
import io.statecast.messagestore.event.HistoryNames;
import io.statecast.messagestore.event.QueryBindings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XdmNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Composite queries and action XPaths reading the SCXML datamodel: which compile to Java, what
 * the loader refuses (file:line, the name), and what an instance's machine gives them.
 */
class SpecDatamodelReadsTest {

    private static SpecLoader loader;

    @BeforeAll
    static void open() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void close() {
        loader.close();
    }

    /**
     * A spec with parameter {@code P} (line 7), composite {@code c} of {@code query} (line 11), data
     * {@code needed} and {@code moreData} (line 14), an action XPath {@code xpath} (line 20).
     */
    private static byte[] spec(String query, String xpath, String moreData) {
        return String.join("\n",
                "<scxml version=\"1.0\" xmlns=\"http://www.w3.org/2005/07/scxml\"",
                "       xmlns:action=\"http://my.custom-actions.domain/action\" initial=\"s\" datamodel=\"xpath\">",
                "  <datamodel>",
                "    <data name=\"service\">",
                "      <ServiceName>t</ServiceName><ServiceID>41</ServiceID><DeliveryMode>multicast</DeliveryMode>",
                "    </data>",
                "    <data name=\"parameters\"><Parameter name=\"P\" type=\"integer\" default=\"1\">p</Parameter></data>",
                "    <data name=\"events\">",
                "      <Basic><Event name=\"msg\"><Message><MessageKind>data</MessageKind></Message></Event>"
                        + "<Event name=\"t\"><Timer><TimerIdentifier>1</TimerIdentifier></Timer></Event></Basic>",
                "      <Composite><Event name=\"c\"><ConstituentBasicEvent>msg</ConstituentBasicEvent>",
                "        <XQuery><![CDATA[" + query + "]]></XQuery></Event></Composite>",
                "    </data>",
                "    <data id=\"needed\" expr=\"2\"/>",
                "    " + moreData,
                "  </datamodel>",
                "  <state id=\"s\">",
                "    <transition event=\"msg\">",
                "      <action:create name=\"setTimer\"/>",
                "      <action:set name=\"setTimer\" field=\"Timer/TimerIdentifier\" value=\"1\"/>",
                "      <action:set name=\"setTimer\" field=\"Timer/TimerValue\" xpath=\"" + xpath + "\"/>",
                "      <action:execute name=\"setTimer\"/>",
                "    </transition>",
                "    <transition event=\"c\" target=\"end\"/>",
                "  </state>",
                "  <final id=\"end\"/>",
                "</scxml>", "").getBytes(StandardCharsets.UTF_8);
    }

    /** The XPath of the spec's one {@code action:set xpath}. */
    private static CompiledPath onlyPath(ServiceSpec s) {
        for (ActionTemplate t : s.actions()) {
            for (FieldAssignment a : t.assignments()) {
                if (a.value() instanceof FieldValue.HistoryQuery q) {
                    return q.path();
                }
            }
        }
        throw new AssertionError("no xpath in " + s);
    }

    private static String errors(byte[] bytes) {
        return loader.validate(bytes, "t.scxml").stream().filter(Problem::isError)
                .map(p -> p.format("t.scxml")).collect(Collectors.joining("\n"));
    }

    @Test
    void shouldLoadQueriesAndPathsThatReadDataDeclaredOrNot() throws Exception {
        byte[] ok = spec("declare variable $needed external; declare variable $P external; "
                + "declare variable $unused external; count(//Event[@name='msg']) >= $needed + $P",
                "$needed", "<data id=\"unused\"/>");
        assertEquals("", errors(ok));
        ServiceSpec s = loader.load(ok, "ok.scxml");
        assertEquals(List.of("needed", "unused"), s.dataIds());
        CompositeEventDefinition c = s.compositeEvents().get(0);
        assertNull(c.query().compiled(), "arithmetic: Saxon");
        assertEquals(List.of(new DatamodelRef(new QName("needed"), 0), new DatamodelRef(new QName("unused"), 1)),
                c.query().data(), "every declared datamodel variable is bound");
        CompiledPath path = onlyPath(s);
        assertNotNull(path.compiled(), "$needed alone is in the subset");
        assertEquals(List.of(new DatamodelRef(new QName("needed"), 0)), path.data(), "the path reads $needed only");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "undeclared external | declare variable $nope external; $nope = 1 | $needed | "
                + "t.scxml:11 | composite event c: external variable $nope is not a declared parameter or datamodel variable",
        "undeclared in XPath | true() | $nope + 1 | t.scxml:20 | xpath of field Timer/TimerValue",
    })
    void shouldRefuseAVariableThatIsNeitherParameterNorData(String what, String query, String xpath, String line,
            String expected) {
        String all = errors(spec(query, xpath, ""));
        assertTrue(all.contains(line) && all.contains(expected.strip()), what + ":\n" + all);
    }

    @Test
    void shouldRefuseADataIdThatIsAlsoAParameterName() {
        String all = errors(spec("true()", "1", "<data id=\"P\" expr=\"3\"/>"));
        assertTrue(all.contains("t.scxml:14") && all.contains("variable 'P' has the name of a parameter (line 7)"), all);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "compared                | count(//Event) >= $d                                   | ",
        "alone                   | $d                                                     | ",
        "in a function           | exists($d) and not(empty($d)) and count($d) = 1        | ",
        "let and quantifier      | let $x := $d return some $y in $x satisfies $y = \"a\" | ",
        "in a predicate          | //Event[@name = $d][$d]                                | ",
        "a branch                | if ($P = 1) then $d else //Event                       | ",
        "a path from it          | $d/x                                                   | a path from a datamodel variable",
        "a path through a let    | let $x := ($d, //Event) return $x//Message             | a path from a datamodel variable",
        "a predicate on it       | $d[1]                                                  | a predicate on a datamodel variable",
        "a union with it         | //Event union $d                                       | a union with a datamodel variable",
    })
    void shouldCompileReadsOfDataButLeaveNavigationIntoItToSaxon(String what, String xpath, String outside) {
        String why = CompiledExpression.outsideSubset(xpath, false, Set.of("P"), List.of("d"));
        if (outside == null) {
            assertNull(why, what);
        } else {
            assertNotNull(why, what);
            assertTrue(why.contains(outside.strip()), what + ": " + why);
        }
    }

    @Test
    void shouldGiveTheMachinesCurrentValuesWithOneItemPerVariable() throws Exception {
        ServiceSpec s = loader.load(TestResources.bytes("specs/datamodel-quorum.scxml"), "datamodel-quorum.scxml");
        assertEquals(List.of("needed", "rto"), s.dataIds());
        List<ActionTemplate> queued = new ArrayList<>();
        MachineState m = s.newMachine(queued::add);
        m.start();
        DatamodelValues data = m.datamodel();
        assertSame(data, m.datamodel(), "made once per machine");
        DatamodelItem needed = data.item(0);
        assertEquals("2", needed.text());
        assertEquals(100L, data.item(1).number(), "kept as the Java number <data expr> gave");
        m.fire(s.chartEvent("sent"));
        m.fire(s.chartEvent("more"));
        assertSame(needed, data.item(0), "the same item: it reads the current value");
        assertEquals("3", needed.text());
        assertEquals(3.0, needed.number().doubleValue(), "untyped + 1 is a double, printed as 3");
        // Saxon's view writes the pending value into the <data> element and gives the element
        XdmNode node = (XdmNode) data.value(0);
        assertEquals("data", node.getNodeName().getLocalName());
        assertEquals("3", node.getStringValue());
        assertEquals("3", needed.text(), "still the same value once written to the document");
        assertNull(needed.number(), "now text in the document: compared by parsing it, as Saxon does");
        m.fire(s.chartEvent("retry"));
        assertEquals("200", data.item(1).text());
        assertEquals("200", ((XdmNode) data.value(1)).getStringValue());
    }

    @Test
    void shouldReadDataInACompiledQueryWithoutAllocatingPerEvaluation() throws Exception {
        ServiceSpec s = loader.load(spec("declare variable $needed external; "
                + "count(/HistoryOfEvents/Event[@name='msg'][last()]) <= $needed and exists($needed)", "1", ""), "t.scxml");
        CompiledExpression q = s.compositeEvents().get(0).query().compiled();
        assertNotNull(q, "in the subset");
        MachineState m = s.newMachine(t -> { });
        m.start();
        History h = new History(16, HistoryNames.of(s.chart().configuration()));
        h.addMessageEvent("msg", io.statecast.messagestore.support.Messages.payload(1, 1, 1, 1, "x"), 0, true);
        QueryBindings bindings = QueryBindings.of(java.util.Map.of("P", 1L));
        DatamodelValues data = m.datamodel();
        assertTrue(q.isTrue(h, bindings, data));
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        int fired = 0;
        for (int i = 0; i < 200_000; i++) {
            fired += q.isTrue(h, bindings, data) ? 1 : 0;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(200_000, fired);
        // a map (or a list) per evaluation would be several MB here
        assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes in 200,000 evaluations");
    }

    @Test
    void shouldGiveNothingForASpecWithoutData() throws Exception {
        ServiceSpec s = loader.load(TestResources.bytes("specs/ack-service.scxml"), "ack-service.scxml");
        assertEquals(List.of(), s.dataIds());
        MachineState m = s.newMachine(t -> { });
        assertSame(DatamodelValues.NONE, m.datamodel());
    }
}
