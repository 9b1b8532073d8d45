package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.message.DeliveryMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The blueprint's listings, as printed (test resources {@code blueprint-listings/}), load with
 * exactly the problems {@code blueprint-listings/expected.txt} names at their lines: one warning
 * per printed form mapped to today's, the usual checks otherwise, and an error where the listing
 * cannot be read without guessing.
 */
class BlueprintListingsTest {

    private static final String DIR = "blueprint-listings/";

    static Stream<String> listings() {
        return TestResources.index(DIR + "expected.txt").stream().map(r -> r[0]).distinct();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listings")
    void shouldGiveExactlyTheExpectedProblemsAtTheirLines(String file) {
        List<Problem> problems = new ArrayList<>(Specs.loader().validate(Specs.bytes(DIR + file), DIR + file));
        String all = problems.stream().map(p -> p.format(file)).collect(Collectors.joining("\n"));
        List<String[]> rows = TestResources.index(DIR + "expected.txt").stream().filter(r -> r[0].equals(file)).toList();
        for (String[] row : rows) {
            int line = Integer.parseInt(row[1]);
            Problem.Severity severity = Problem.Severity.valueOf(row[2].toUpperCase(java.util.Locale.ROOT));
            Problem hit = problems.stream()
                    .filter(p -> p.line() == line && p.severity() == severity && p.message().contains(row[3]))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + row[2] + " at line " + line + " containing '"
                            + row[3] + "' in:\n" + all));
            problems.remove(hit);
        }
        assertEquals(List.of(), problems, "problems expected.txt does not name, of:\n" + all);
        boolean refused = rows.stream().anyMatch(r -> r[2].equals("error"));
        if (refused) {
            assertThrows(SpecException.class, () -> Specs.loader().load(Specs.bytes(DIR + file), DIR + file));
        } else {
            assertEquals(rows.size(), Specs.load(DIR + file).warnings().size(), "the loaded spec keeps its warnings");
        }
    }

    @Test
    void shouldDeriveTheServiceSectionFromWhatTheListingSays() {
        ServiceMetadata h2h = Specs.load(DIR + "h2h-as-printed.scxml").service();
        assertEquals("h2h-as-printed", h2h.name(), "from the file name");
        assertEquals(2143329409, h2h.serviceId());
        assertTrue(h2h.serviceId() >= BlueprintForms.DERIVED_SERVICE_ID_BASE, "in the range kept for derived ids");
        assertEquals(EnumSet.of(DeliveryMode.UNICAST, DeliveryMode.MULTICAST), h2h.deliveryModes(),
                "the modes its sendMessage actions use");
        assertEquals(Scope.MESSAGE, h2h.scope());

        assertEquals(EnumSet.allOf(DeliveryMode.class),
                Specs.load(DIR + "message-selection.scxml").service().deliveryModes(), "names none: all three");
    }

    @Test
    void shouldTakeTheServiceNameFromTheScxmlNameAttributeBeforeTheFileName() throws SpecException {
        ServiceSpec spec = Specs.loader().load(("""
                <scxml xmlns="http://www.w3.org/2005/07/scxml" name="selection v2" initialstate="a">
                  <datamodel><data name="events"><Basic>
                    <Event name="m"><Message><DeliveryMode>3</DeliveryMode></Message></Event>
                  </Basic></data></datamodel>
                  <state id="a"><transition event="m" target="a"/></state>
                </scxml>""").getBytes(java.nio.charset.StandardCharsets.UTF_8), "dir/other.scxml");
        assertEquals("selection_v2", spec.service().name(), "characters a ServiceName cannot hold become _");
        assertEquals(Set.of(DeliveryMode.UNICAST), spec.service().deliveryModes(),
                "the filter's numeric mode, read as the blueprint's unicast");
        List<String> warnings = spec.warnings().stream().sorted().map(Problem::toString).toList();
        assertEquals(2, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).contains("spec:1:1: warning: no <data name=\"service\">")
                && warnings.get(0).contains("(from <scxml name>)"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("spec:3:") && warnings.get(1).contains(
                "DeliveryMode <DeliveryMode>3</DeliveryMode> is the blueprint's numbering"), warnings.get(1));
    }

    @Test
    void shouldReadAPayloadTypeLiteralAsADataMessageAndDropTheTypeItCannotTake() throws SpecException {
        ServiceSpec spec = Specs.parse(minimalSending("""
                <action:create name="sendMessage"/>
                <action:set name="sendMessage" field="Message/DeliveryMode" value="flood"/>
                <action:set name="sendMessage" field="Message/MessageType" value="0x80"/>
                <action:execute name="sendMessage"/>"""));
        List<String> warnings = spec.warnings().stream().map(Problem::message).toList();
        assertEquals(1, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).startsWith("sendMessage (the blueprint's listings) read as sendDataMessage because "
                + "it sets the payload MessageType 0x80"), warnings.get(0));
    }

    @Test
    void shouldSendAControlMessageWhenNothingSaysThereIsAPayload() throws SpecException {
        ServiceSpec spec = Specs.parse(minimalSending("""
                <action:create name="sendMessage"/>
                <action:set name="sendMessage" field="Message/DeliveryMode" value="flood"/>
                <action:execute name="sendMessage"/>"""));
        assertEquals(List.of("sendMessage (the blueprint's listings) read as sendControlMessage because it sets no "
                + "payload and copies no message (its Table 5.2 splits sendMessage into sendDataMessage and "
                + "sendControlMessage); write sendControlMessage"),
                spec.warnings().stream().map(Problem::message).toList());
    }

    @Test
    void shouldRefuseAMessageCopyWhoseKindNoFilterFixesAndAnyOtherNumericMode() {
        SpecException e = assertThrows(SpecException.class, () -> Specs.parse(minimalSending("""
                <action:create name="sendMessage"/>
                <action:set name="sendMessage" field="Message" xpath="//Event[@name='m' or @name='c'][last()]/Message"/>
                <action:set name="sendMessage" field="Message/DeliveryMode" value="2"/>
                <action:execute name="sendMessage"/>""")));
        Set<String> errors = new TreeSet<>();
        e.problems().stream().filter(Problem::isError).forEach(p -> errors.add(p.line() + ": " + p.message()));
        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.iterator().next().startsWith("9: cannot tell whether sendMessage sends a data or a control "
                + "message: it copies both data and control messages (events m, c)"), errors::toString);

        e = assertThrows(SpecException.class, () -> Specs.parse(minimalSending("""
                <action:create name="sendControlMessage"/>
                <action:set name="sendControlMessage" field="Message/DeliveryMode" value="2"/>
                <action:execute name="sendControlMessage"/>""")));
        List<Problem> refused = e.problems().stream().filter(Problem::isError).toList();
        assertEquals(1, refused.size(), refused::toString);
        assertEquals(9, refused.get(0).line());
        assertTrue(refused.get(0).message().contains("DeliveryMode 2 has no meaning: the blueprint numbers only 1 "
                + "(multicast) and 3 (unicast)"), refused.get(0).message());
        assertFalse(e.problems().stream().anyMatch(p -> p.message().contains("read as")), "2 is not mapped");
    }

    @Test
    void shouldRefuseASendMessageSetOrExecuteWithoutACreateRatherThanIgnoreIt() {
        SpecException e = assertThrows(SpecException.class, () -> Specs.parse(minimalSending("""
                <action:set name="sendMessage" field="Message/DeliveryMode" value="3"/>
                <action:execute name="sendMessage"/>""")));
        List<String> errors = e.problems().stream().filter(Problem::isError)
                .map(p -> p.line() + ": " + p.message()).toList();
        assertEquals(List.of(
                "8: action:set for sendMessage has no action:create before it in the same <transition>, so it cannot "
                        + "be read as sendDataMessage or sendControlMessage",
                "9: action:execute for sendMessage has no action:create before it in the same <transition>, so it "
                        + "cannot be read as sendDataMessage or sendControlMessage"), errors);
    }

    /** A spec with a service section, a data event m and a control event c, whose transition on m holds {@code actions} from line 8. */
    private static String minimalSending(String actions) {
        return """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:action="http://my.custom-actions.domain/action"
                       initialstate="a">
                  <datamodel><data name="service"><ServiceName>t</ServiceName><ServiceID>5</ServiceID>
                    <DeliveryMode>flood</DeliveryMode></data><data name="events"><Basic>
                    <Event name="m"><Message><MessageKind>data</MessageKind></Message></Event>
                    <Event name="c"><Message><MessageType>7</MessageType></Message></Event></Basic></data></datamodel>
                  <state id="a"><transition event="m c">
                """ + actions + "\n</transition></state></scxml>";
    }
}
