package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.action.ActionRecord;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.overlay.testkit.RecordingOverlay.SendData;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A listing loaded as printed (its forms mapped, {@code blueprint-listings/}) behaves as the same
 * spec written in today's forms ({@code blueprint-listings/modern/}): driven through the same
 * messages and clock, both reach the same states and call the same primitives with the same
 * arguments. Each test also pins what those calls are, so "the same" cannot mean "none".
 *
 * <p>This node is 9; in the tree rooted at 100 its parent is 5 and its children 2 and 3.
 */
class BlueprintListingsBehaviourTest {

    private static final long MID = 42;

    /** What one run of a script saw: each step's states and calls, then the primitives the instance executed. */
    private static List<String> run(String resource, Consumer<Driver> script) {
        Driver d = new Driver(Specs.load(resource));
        script.accept(d);
        for (ActionRecord r : d.instance.actionHistory()) {
            d.log.add(r.primitive() + " " + r.outcome());
        }
        return d.log;
    }

    private static List<String> asPrintedAndModern(String file, Consumer<Driver> script) {
        List<String> printed = run("blueprint-listings/" + file, script);
        assertEquals(run("blueprint-listings/modern/" + file, script), printed,
                file + " as printed and in today's forms");
        return printed;
    }

    @Test
    void shouldAcknowledgeAndRetransmitAsTheModernHopToHopSpecDoes() {
        List<String> log = asPrintedAndModern("h2h-as-printed.scxml", d -> {
            d.receive(Messages.payload(d.sid, MID, 100, 5, "Hello World"));
            d.receive(Messages.control(d.sid, 1, MID, 2, 9, 2));
            d.receive(Messages.multicastControl(d.sid, 3, MID, 5, 100, 5));
        });
        int sid = 2143329409;
        assertEquals(List.of(
                "[waitack] " + describe(new SendControl(sid, (byte) 2, MID, null, route(DeliveryMode.UNICAST, 5, null,
                        Route.DEFAULT_HOP_LIMIT))),
                "[waitack] " + describe(new SendData(sid, MID, "Hello World".getBytes(StandardCharsets.UTF_8),
                        route(DeliveryMode.MULTICAST, -1, 100L, 1))),
                "[waitack]",
                "SEND_CONTROL_MESSAGE EXECUTED", "SEND_DATA_MESSAGE EXECUTED"), log,
                "Example Action 2: a control ACK to the previous hop, unicast; Example Action 4: the payload "
                        + "again to the children, multicast, one hop");
    }

    @Test
    void shouldArmTheNackTimerOfExampleActionOne() {
        List<String> log = asPrintedAndModern("h2h-as-printed.scxml", d -> {
            d.receive(Messages.multicastControl(d.sid, 3, MID, 5, 100, 5));
            d.log.add("timers " + d.instance.timersSet());
            d.advance(5_000);
            d.log.add("timers " + d.instance.timersSet());
        });
        assertEquals(List.of("[nopayload]", "timers [2]", "[nopayload]", "timers []", "SET_TIMER EXECUTED"), log);
    }

    @Test
    void shouldShakeHandsAsTheModernSpecDoes() {
        List<String> opener = asPrintedAndModern("three-way-handshake.scxml", d -> {
            d.receive(Messages.unicastPayload(d.sid, MID, 9, 2, 9, "open"));
            d.advance(1_000);
            d.receive(Messages.control(d.sid, 2, MID, 2, 9, 2));
        });
        int sid = 2131589814;
        String toA = describe(new SendControl(sid, (byte) 1, MID, null,
                route(DeliveryMode.UNICAST, 2, null, Route.DEFAULT_HOP_LIMIT)));
        String ackToA = describe(new SendControl(sid, (byte) 3, MID, null,
                route(DeliveryMode.UNICAST, 2, null, Route.DEFAULT_HOP_LIMIT)));
        assertEquals(List.of("[init]", "[synsent] " + toA, "[established] " + ackToA,
                "SET_TIMER EXECUTED", "SEND_CONTROL_MESSAGE EXECUTED", "SEND_CONTROL_MESSAGE EXECUTED"), opener,
                "B: the SYN after the setup timeout, the ACK on SYN+ACK");

        List<String> listener = asPrintedAndModern("three-way-handshake.scxml", d -> {
            d.receive(Messages.control(d.sid, 1, MID, 2, 9, 2));
            d.receive(Messages.control(d.sid, 3, MID, 2, 9, 2));
        });
        String synAck = describe(new SendControl(sid, (byte) 2, MID, null,
                route(DeliveryMode.UNICAST, 2, null, Route.DEFAULT_HOP_LIMIT)));
        assertEquals(List.of("[synrcvd] " + synAck, "[established]",
                "SET_TIMER EXECUTED", "SEND_CONTROL_MESSAGE EXECUTED"), listener, "A: SYN+ACK on SYN");
    }

    @Test
    void shouldSendTheCopiedPayloadOnATokenAsTheModernLeakyBucketDoes() {
        List<String> log = asPrintedAndModern("leaky-bucket.scxml", d -> {
            d.receive(Messages.unicastPayload(d.sid, MID, 9, 2, 9, "data"));
            d.advance(100);
            d.advance(900);
            d.log.add("ended " + d.instance.ended());
        });
        int sid = 2140530761;
        assertEquals(List.of("[wait]",
                "[wait] " + describe(new SendData(sid, MID, "data".getBytes(StandardCharsets.UTF_8),
                        route(DeliveryMode.UNICAST, 2, null, Route.DEFAULT_HOP_LIMIT))),
                "[done]", "ended TERMINATED",
                "SET_TIMER EXECUTED", "SET_TIMER EXECUTED", "SEND_DATA_MESSAGE EXECUTED", "TERMINATE EXECUTED"), log);
    }

    private static Route route(DeliveryMode mode, long to, Long root, int hops) {
        return new Route(mode, to < 0 ? null : a(to), root == null ? null : a(root), hops);
    }

    /** A call as text: the records hold byte arrays, which equals() compares by identity. */
    private static String describe(Call c) {
        if (c instanceof SendData s) {
            return "SendData(" + s.serviceId() + ", " + s.messageId() + ", " + Arrays.toString(s.payload()) + ", "
                    + s.route() + ", " + s.fields() + ")";
        }
        if (c instanceof SendControl s) {
            return "SendControl(" + s.serviceId() + ", " + s.messageType() + ", " + s.messageId() + ", "
                    + Arrays.toString(s.body()) + ", " + s.route() + ", " + s.fields() + ")";
        }
        return c.toString();
    }

    /** One instance of a spec at node 9 on a virtual clock, with a log of what each step did. */
    private static final class Driver {
        final VirtualTimerService clock = new VirtualTimerService();
        final RecordingOverlay overlay = new RecordingOverlay(a(9), clock,
                new FixedTopology(a(9)).tree(a(100), a(5), a(2), a(3)));
        final ServiceSpec spec;
        final int sid;
        final ServiceInstance instance;
        final List<String> log = new ArrayList<>();

        Driver(ServiceSpec spec) {
            this.spec = spec;
            this.sid = spec.service().serviceId();
            this.instance = new ServiceInstance(Keys.message(sid, MID), new ServiceRuntime(spec),
                    new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
            instance.start();
        }

        void receive(OverlayMessage m) {
            instance.onMessage(m, spec.matchMessage(m, a(9)));
            record();
        }

        void advance(long millis) {
            clock.advanceBy(Duration.ofMillis(millis));
            record();
        }

        private void record() {
            StringBuilder sb = new StringBuilder(instance.states().toString());
            for (Call c : overlay.drain()) {
                sb.append(' ').append(describe(c));
            }
            log.add(sb.toString());
        }
    }
}
