package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code <InFlight>} in the service section: parsed, checked against the states, evaluated. */
class InFlightDeclarationTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    /** The minimal fixture (states idle, busy) with {@code inFlight} after its DeliveryMode, and a final state. */
    private static byte[] spec(String inFlight) {
        String text = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<DeliveryMode>unicast</DeliveryMode>", "<DeliveryMode>unicast</DeliveryMode>" + inFlight)
                .replace("</scxml>", "  <final id=\"gone\"/>\n</scxml>");
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadTheDeclaredStates() throws Exception {
        ServiceSpec s = loader.load(spec("<InFlight> busy\n idle </InFlight>"), "good.scxml");
        assertEquals(List.of("busy", "idle"), s.service().inFlight());
        assertTrue(s.declaresInFlight());
    }

    @Test
    void shouldDeclareNothingWithoutTheElement() throws Exception {
        ServiceSpec s = loader.load(spec(""), "plain.scxml");
        assertEquals(List.of(), s.service().inFlight());
        assertFalse(s.declaresInFlight());
    }

    @Test
    void shouldTellWhetherAMachineIsInFlight() throws Exception {
        ServiceSpec s = loader.load(spec("<InFlight>busy</InFlight>"), "busy.scxml");
        EngineDriver d = new EngineDriver(s);
        assertFalse(d.machine.inFlight(), "idle is not declared");
        d.fire("ping");
        assertEquals(java.util.Set.of("busy"), d.states());
        assertTrue(d.machine.inFlight());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<InFlight>busy waitack</InFlight> | <InFlight> names state 'waitack', which does not exist (states: busy, gone, idle)",
        "<InFlight>gone</InFlight>         | <InFlight> names state 'gone', a final state",
        "<InFlight>busy busy</InFlight>    | <InFlight> names state 'busy' twice",
        "<InFlight>busy,idle</InFlight>    | <InFlight> names state 'busy,idle', which does not exist",
    })
    void shouldRefuseABadDeclarationNamingIt(String declaration, String expected) {
        byte[] bytes = spec(declaration);
        List<Problem> problems = loader.validate(bytes, "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        assertEquals(1, problems.stream().filter(Problem::isError).count(), all);
        Problem p = problems.stream().filter(Problem::isError).findFirst().orElseThrow();
        assertTrue(p.message().contains(expected), all);
        assertEquals(8, p.line(), "the error points at the <InFlight> element: " + all);
        SpecException e = assertThrows(SpecException.class, () -> loader.load(bytes, "bad.scxml"));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void shouldRefuseAnEmptyDeclaration() {
        List<Problem> problems = loader.validate(spec("<InFlight> </InFlight>"), "empty.scxml");
        assertTrue(problems.stream().anyMatch(p -> p.isError() && p.message().contains("InFlight")),
                problems.toString());
    }

    /** The fixture with a variable {@code held}, an integer parameter {@code Most} and {@code declaration}. */
    private static byte[] counted(String declaration) {
        String text = new String(spec(declaration), StandardCharsets.UTF_8)
                .replace("<Parameter name=\"Wait\"", "<Parameter name=\"Most\" type=\"integer\" default=\"8\">Most.</Parameter>\n"
                        + "      <Parameter name=\"Wait\"")
                .replace("  </datamodel>", "    <data id=\"held\" expr=\"0\"/>\n  </datamodel>");
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadAnInFlightCount() throws Exception {
        ServiceSpec s = loader.load(counted("<InFlightCount limit=\"Most\">held</InFlightCount>"), "count.scxml");
        assertEquals(new InFlightCount("held", "Most"), s.service().inFlightCount());
        assertTrue(s.declaresInFlight());
        assertEquals(8, s.inFlightLimit());
        assertEquals(s.dataIds().indexOf("held"), s.inFlightCountIndex());
        ServiceSpec plain = loader.load(counted("<InFlightCount>held</InFlightCount>"), "count.scxml");
        assertEquals(Integer.MAX_VALUE, plain.inFlightLimit(), "no limit: the socket's window alone");
        assertEquals(3, loader.load(counted("<InFlightCount limit=\"3\">held</InFlightCount>"), "c.scxml").inFlightLimit());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<InFlightCount>gone</InFlightCount>                  | <InFlightCount> names variable 'gone', which is not declared (variables: held)",
        "<InFlightCount limit=\"Wait\">held</InFlightCount>    | the limit must be a whole number of at least 1 or the name of an integer parameter (integer parameters: Most)",
        "<InFlightCount limit=\"0\">held</InFlightCount>       | the limit must be at least 1",
        "<InFlight>busy</InFlight><InFlightCount>held</InFlightCount> | <InFlight> and <InFlightCount> exclude each other",
    })
    void shouldRefuseABadCountNamingIt(String declaration, String expected) {
        byte[] bytes = counted(declaration);
        List<Problem> problems = loader.validate(bytes, "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        assertEquals(1, problems.stream().filter(Problem::isError).count(), all);
        assertTrue(problems.stream().filter(Problem::isError).findFirst().orElseThrow().message().contains(expected), all);
        SpecException e = assertThrows(SpecException.class, () -> loader.load(bytes, "bad.scxml"));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
