package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code <CreatedBy>} in the service section, and the default rule of which messages create an instance. */
class CreatedByDeclarationTest {

    private static final LogicalAddress SELF = new TreeAddress(1);
    private static final LogicalAddress PEER = new TreeAddress(2);
    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    /** The minimal fixture (message scope; ping is a control message) with {@code extra} closing its service section. */
    private static byte[] spec(String extra) {
        String text = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<DeliveryMode>unicast</DeliveryMode>", "<DeliveryMode>unicast</DeliveryMode>" + extra);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static OverlayMessage message(byte type) {
        FsmExtension fsm = new FsmExtension(7, type, 42);
        return new OverlayMessage(DeliveryMode.UNICAST, 8, PEER, SELF, PEER, null, type == FsmExtension.PAYLOAD_TYPE
                ? List.of(fsm, new PayloadExtension(new byte[] {1})) : List.of(fsm));
    }

    @Test
    void shouldLetOnlyADataMessageCreateAMessageScopeInstanceByDefault() throws Exception {
        ServiceSpec s = loader.load(spec(""), "plain.scxml");
        OverlayMessage ping = message((byte) 5);
        assertFalse(s.createsInstance(ping, s.matchMessage(ping, SELF)), "a control message about a message never seen");
        OverlayMessage data = message(FsmExtension.PAYLOAD_TYPE);
        assertTrue(s.createsInstance(data, List.of()), "a data message");
    }

    @Test
    void shouldLetAnyMessageCreateAFlowInstanceByDefault() throws Exception {
        ServiceSpec s = loader.load(spec("<Scope>flow</Scope>"), "flow.scxml");
        OverlayMessage ping = message((byte) 5);
        assertTrue(s.createsInstance(ping, s.matchMessage(ping, SELF)));
    }

    @Test
    void shouldLetTheListedEventsCreateAndNothingElse() throws Exception {
        ServiceSpec s = loader.load(spec("<CreatedBy>ping</CreatedBy>"), "listed.scxml");
        assertEquals(List.of("ping"), s.service().createdBy());
        OverlayMessage ping = message((byte) 5);
        assertTrue(s.createsInstance(ping, s.matchMessage(ping, SELF)));
        OverlayMessage data = message(FsmExtension.PAYLOAD_TYPE);
        assertFalse(s.createsInstance(data, s.matchMessage(data, SELF)), "no listed event matches the data message");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<CreatedBy>pong</CreatedBy>       | <CreatedBy> names 'pong', which is not a message event (message events: ping)",
        "<CreatedBy>tick</CreatedBy>       | <CreatedBy> names 'tick', which is not a message event",
        "<CreatedBy>pinged</CreatedBy>     | <CreatedBy> names 'pinged', which is not a message event",
        "<CreatedBy>ping ping</CreatedBy>  | <CreatedBy> names 'ping' twice",
        "<CreatedBy> </CreatedBy>          | <CreatedBy> is empty",
    })
    void shouldRefuseABadDeclarationNamingIt(String declaration, String expected) {
        List<Problem> problems = loader.validate(spec(declaration), "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        List<Problem> errors = problems.stream().filter(Problem::isError).toList();
        assertEquals(1, errors.size(), all);
        assertTrue(errors.get(0).message().contains(expected), all);
        assertEquals(8, errors.get(0).line(), "the error points at the <CreatedBy> element: " + all);
    }
}
