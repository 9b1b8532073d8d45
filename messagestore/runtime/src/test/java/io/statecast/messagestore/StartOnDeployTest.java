package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code <Start>}: a service the store starts on deployment (the node's own instance, fired the
 * start event), so it acts without being sent a message. The test service floods a beat with
 * HopLimit 1 every Interval (100 ms); clock threading on a virtual clock, deterministic.
 */
class StartOnDeployTest {

    private static final String RESOURCE = "specs/deploy-ticker.scxml";
    private static final ServiceSpec TICKER = Specs.load(RESOURCE);

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private final List<MessageStore> stores = new ArrayList<>();

    private MessageStore store(InstanceLimits limits) {
        MessageStore s = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withInstances(limits).withThreading(MessageStoreConfig.Threading.CLOCK), Specs.loader(),
                SpecResolver.defaults());
        stores.add(s);
        return s;
    }

    @AfterEach
    void close() {
        stores.forEach(MessageStore::close);
        assertEquals(0, clock.taskFailures(), () -> String.valueOf(clock.lastFailure()));
    }

    /** The beats sent since the last call: flood control messages of type 5. */
    private List<RecordingOverlay.SendControl> beats() {
        List<RecordingOverlay.SendControl> out = new ArrayList<>();
        for (RecordingOverlay.Call c : overlay.drain()) {
            if (c instanceof RecordingOverlay.SendControl s) {
                out.add(s);
            }
        }
        return out;
    }

    @Test
    void shouldStartTheNodesInstanceWhenInstalledOnAnOpenStore() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.open(overlay);
        s.install(TICKER);
        clock.advanceBy(Duration.ofMillis(350));
        List<RecordingOverlay.SendControl> beats = beats();
        assertEquals(3, beats.size(), "one beat per 100 ms, no message needed: " + beats);
        for (RecordingOverlay.SendControl b : beats) {
            assertEquals(77, b.serviceId());
            assertEquals(5, b.messageType());
            assertEquals(DeliveryMode.FLOOD, b.route().mode());
            assertEquals(1, b.route().hopLimit(), "HopLimit 1: the neighbours only");
        }
        assertEquals(1, s.liveInstances(), "exactly one instance: the node's own");
    }

    @Test
    void shouldStartInstalledServicesWhenTheStoreOpens() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.install(TICKER);
        clock.advanceBy(Duration.ofMillis(300));
        assertEquals(0, beats().size(), "not deployed on a node before the store is open");
        s.open(overlay);
        clock.advanceBy(Duration.ofMillis(250));
        assertEquals(2, beats().size());
    }

    @Test
    void shouldKeepTheStartedInstanceThroughIdleSweeps() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS.withIdleTimeoutMs(1_000));
        s.open(overlay);
        s.install(TICKER);
        // an instance of another source, created by its beat, goes idle; the node's own does not
        s.receiveMessage(beat(1), Arrival.DELIVERED);
        clock.advanceBy(Duration.ZERO);
        assertEquals(2, s.liveInstances());
        clock.advanceBy(Duration.ofMillis(5_000));
        assertEquals(1, s.liveInstances(), "the flow from node 1 went idle, the started instance stays");
        beats();
        clock.advanceBy(Duration.ofMillis(1_000));
        assertEquals(10, beats().size(), "still beating after five idle timeouts");
    }

    @Test
    void shouldNotFireTheStartEventInInstancesCreatedByMessages() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.open(overlay);
        s.install(TICKER);
        s.receiveMessage(beat(1), Arrival.DELIVERED);
        s.receiveMessage(beat(5), Arrival.DELIVERED);
        clock.advanceBy(Duration.ofMillis(1_000));
        long sent = beats().size();
        assertEquals(10, sent, "only the node's own instance beats, not the flows from 1 and 5");
    }

    @Test
    void shouldRunOneLoopAfterTheSpecIsReplacedAndNoneAfterUnload() throws Exception {
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.open(overlay);
        s.install(TICKER);
        clock.advanceBy(Duration.ofMillis(150));
        s.install(Specs.load(RESOURCE).withParameters(Map.of("Interval", "50")));
        clock.advanceBy(Duration.ZERO);
        beats();
        clock.advanceBy(Duration.ofMillis(1_000));
        assertEquals(20, beats().size(), "the new spec's loop (50 ms) alone; the old one ended");
        assertTrue(s.unloadService(77));
        clock.advanceBy(Duration.ofMillis(1_000));
        assertEquals(0, beats().size());
        assertEquals(0, s.liveInstances());
    }

    private static OverlayMessage beat(long source) {
        return new OverlayMessage(DeliveryMode.FLOOD, 0, a(source), null, a(source), a(source),
                List.<Extension>of(new FsmExtension(77, (byte) 5, 100 + source)));
    }

    // ------------------------------------------------------------------ refusals

    private static byte[] variant(String from, String to) {
        String text = new String(Specs.bytes(RESOURCE), StandardCharsets.UTF_8);
        assertTrue(text.contains(from), from);
        return text.replace(from, to).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<Scope>flow</Scope>             | <Scope>message</Scope>            | <Start> needs a flow scope",
        "<Scope>flow</Scope>             | <Scope>message-source</Scope>     | <Start> needs a flow scope",
        "<Scope>flow</Scope>             | <Scope>expression</Scope><ScopeKey>'k'</ScopeKey> | <Start> needs a flow scope (flow, flow-destination or flow-peer) or node",
        "<Start>deployed</Start>         | <Start>beat</Start>               | <Start> event 'beat' is also declared",
        "<Start>deployed</Start>         | <Start>go.now</Start>             | <Start> 'go.now' is not an event name",
        "<Start>deployed</Start>         | <Start>begin</Start>              | <Start> event 'begin' has no transition",
    })
    void shouldRefuseMisuseNamingIt(String from, String to, String expected) {
        byte[] bytes = variant(from, to);
        SpecLoader loader = Specs.loader();
        List<Problem> problems = loader.validate(bytes, "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        List<Problem> errors = problems.stream().filter(Problem::isError).toList();
        assertTrue(errors.stream().anyMatch(p -> p.message().contains(expected)), all);
        Problem p = errors.stream().filter(x -> x.message().contains(expected)).findFirst().orElseThrow();
        assertEquals(15, p.line(), "points at the <Start> element: " + all);
    }

    @Test
    void shouldAcceptTheStartEventInEveryFlowScope() throws Exception {
        for (String scope : List.of("flow-destination", "flow-peer", "flow-source")) {
            ServiceSpec spec = Specs.loader().load(variant("<Scope>flow</Scope>", "<Scope>" + scope + "</Scope>"), scope);
            assertEquals("deployed", spec.service().start(), scope);
        }
        LogicalAddress me = a(9);
        assertEquals(me, io.statecast.messagestore.instance.InstanceKey.ofNode(
                io.statecast.messagestore.spec.Scope.FLOW_PEER, 77, me).peer());
    }

    @Test
    void shouldStartTheOneInstanceOfANodeScopeServiceAndHandItEveryMessage() throws Exception {
        ServiceSpec spec = Specs.loader().load(variant("<Scope>flow</Scope>", "<Scope>node</Scope>"), "node");
        assertEquals(io.statecast.messagestore.spec.Scope.NODE, spec.service().scope());
        MessageStore s = store(InstanceLimits.DEFAULTS);
        s.open(overlay);
        s.install(spec);
        s.receiveMessage(beat(1), Arrival.DELIVERED);
        s.receiveMessage(beat(5), Arrival.DELIVERED);
        clock.advanceBy(Duration.ofMillis(1_000));
        assertEquals(1, s.liveInstances(), "the beats of 1 and 5 reached the node's own instance");
        assertEquals(10, beats().size(), "which beats on: it was started, and the beats found it ticking");
    }
}
