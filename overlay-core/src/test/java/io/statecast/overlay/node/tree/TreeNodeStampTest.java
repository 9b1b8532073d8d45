package io.statecast.overlay.node.tree;

import io.statecast.overlay.node.ProtocolBodyException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.HeartbeatStamp;
import io.statecast.overlay.node.NodeEnvironment;
import io.statecast.overlay.node.tree.TreeMessages.Beacon;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One tree node's beacons: timestamps echoed to a link that sends them, none to one that does not. */
class TreeNodeStampTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final SubstrateAddress ME = SubstrateAddress.mem("me");
    private static final SubstrateAddress PEER = SubstrateAddress.mem("peer");

    private final VirtualTimerService clock = new VirtualTimerService();
    private final List<Beacon> sent = new ArrayList<>();

    private TreeNode started() {
        NodeEnvironment env = new NodeEnvironment((to, m) -> {
            try {
                if (m.type() == TreeMessages.BEACON) {
                    sent.add((Beacon) TreeMessages.decode(m, 4096));
                }
            } catch (ProtocolBodyException e) {
                throw new AssertionError("the node sent an undecodable message", e);
            }
            return true;
        }, List.of(ME), clock, new SplittableRandom(SEED));
        TreeNode n = new TreeNode(new TreeAddress(5), Cluster.DEFAULTS, env);
        n.join();
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
        return n;
    }

    private void deliver(TreeNode n, Beacon b) {
        n.onProtocolMessage(TreeMessages.encode(b), PEER);
        clock.advanceBy(0, TimeUnit.NANOSECONDS);
    }

    private static Beacon from9(HeartbeatStamp stamp) {
        return new Beacon(9, 9, 1L << 32, false, 0, 0, List.of(PEER), null, false, false, stamp);
    }

    @Test
    void shouldEchoALinksTimestampAndMeasureTheRoundTrip() {
        TreeNode n = started();
        deliver(n, from9(new HeartbeatStamp(4242, null)));
        Beacon answer = sent.get(sent.size() - 1);
        assertEquals(4242, answer.stamp().echo().echoMicros(), "a new link is answered at once, echoing its stamp");
        long mine = answer.stamp().sentMicros();
        sent.clear();
        clock.advanceBy(Duration.ofMillis(12));
        deliver(n, from9(new HeartbeatStamp(5000, new HeartbeatStamp.Echo(mine, 2_000))));
        assertEquals(10.0, n.rtt(new TreeAddress(9)).orElseThrow().srttMillis(), 1e-9, "12 ms less the 2 ms held");
        assertEquals(5.0, n.rtt(new TreeAddress(9)).orElseThrow().rttvarMillis(), 1e-9);
    }

    @Test
    void shouldSendNoTimestampsToALinkWhoseBeaconsCarryNone() {
        TreeNode n = started();
        deliver(n, from9(null));
        assertTrue(!sent.isEmpty(), "answered");
        assertNull(sent.get(sent.size() - 1).stamp(), "an older node would refuse the flags");
        sent.clear();
        clock.advanceBy(Duration.ofMillis(300));
        assertTrue(!sent.isEmpty(), "heartbeat");
        assertNull(sent.get(sent.size() - 1).stamp());
        deliver(n, from9(new HeartbeatStamp(1, null)));
        clock.advanceBy(Duration.ofMillis(300));
        assertNotNull(sent.get(sent.size() - 1).stamp(), "stamped once the link's beacons are");
        assertTrue(n.rtt(new TreeAddress(9)).isEmpty());
    }
}
