package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.examples.sidebyside.LossyNamespace;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * heartbeat-fd with the default settings between real node processes in a network namespace of
 * their own ({@link LossyNamespace}: nft rules on its loopback's input hook): a black-holed link
 * (both directions of one pair of UDP ports dropped) is reported down at both of its ends and
 * nowhere else, and up again once it is mended; at 5 % random datagram loss no live peer is
 * reported down (a short run here, ten minutes under {@code -Psoak}), after which a
 * {@code kill -9} is still reported by every neighbour of the killed node. Detection delays (wall
 * clock, from the nft rule or the kill to the {@code PEER} line reaching this test) are printed
 * for the record, never asserted: the bound on a loaded machine is the deadline.
 *
 * <p>Needs root, iproute2 and nftables, as the testbed does: elsewhere the tests are skipped and
 * say why ({@link LossyNamespace#unavailableReason()}).
 */
class HeartbeatFdUnderLossTest {

    static final int SERVICE = 12;
    static final int LOSS_PERCENT = 5;
    /** The short run of the default build. */
    static final Duration SHORT = Duration.ofSeconds(40);
    /** The soak run (issue #29's figure): ten minutes. */
    static final Duration SOAK = Duration.ofMinutes(10);
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DETECT = Duration.ofSeconds(30);
    static final Duration REPLY = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @TempDir
    Path dir;

    private LossyNamespace ns;
    private NodeCluster cluster;
    private Path spec;
    private String buddy;
    private Random random;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    @Test
    void shouldReportABlackHoledLinkDownAtBothEndsOnlyAndUpWhenMended() throws Exception {
        List<NodeProcess> nodes = overlay("c", 3);
        // one link of the tree: the first node with a neighbour, and that neighbour
        NodeProcess x = nodes.stream().filter(p -> !p.neighbours().isEmpty()).findFirst().orElseThrow();
        String yAddress = Collections.min(x.neighbours());
        NodeProcess y = nodes.stream().filter(p -> p.address().equals(yAddress)).findFirst().orElseThrow();
        List<NodeProcess> others = nodes.stream().filter(p -> p != x && p != y).toList();
        Supplier<String> context = () -> "seed " + SEED + ", link " + x.address() + " - " + y.address() + "\n" + cluster.describe();
        Map<NodeProcess, Integer> marks = marks(nodes);

        long cutAt = System.nanoTime();
        ns.blackHole(udpPort(x), udpPort(y));
        String xDown = x.awaitLine(marks.get(x), l -> l.startsWith("PEER " + y.address() + " "), DETECT,
                x.name() + "'s report on " + y.address());
        long xMs = msSince(cutAt);
        String yDown = y.awaitLine(marks.get(y), l -> l.startsWith("PEER " + x.address() + " "), DETECT,
                y.name() + "'s report on " + x.address());
        long yMs = msSince(cutAt);
        System.out.printf(Locale.ROOT, "heartbeat-fd: black hole %s - %s reported after %d ms (%s) and %d ms (%s) "
                + "(wall clock from the nft rule, loaded machine included)%n", x.address(), y.address(), xMs, x.name(), yMs, y.name());
        // the overlay's own neighbour timeout (15 s) is far longer: it still lists the peer, so the cause is the timeout
        assertEquals("PEER " + y.address() + " DOWN TIMEOUT", xDown, context);
        assertEquals("PEER " + x.address() + " DOWN TIMEOUT", yDown, context);

        ns.mend();
        String xUp = x.awaitLine(marks.get(x), l -> l.equals("PEER " + y.address() + " UP NONE"), DETECT,
                x.name() + "'s peerUp of " + y.address());
        String yUp = y.awaitLine(marks.get(y), l -> l.equals("PEER " + x.address() + " UP NONE"), DETECT,
                y.name() + "'s peerUp of " + x.address());
        for (NodeProcess p : nodes) {
            p.request("ping after", "PONG", REPLY);
        }
        assertEquals(List.of(xDown, xUp), peerLinesSince(x, marks.get(x)), context);
        assertEquals(List.of(yDown, yUp), peerLinesSince(y, marks.get(y)), context);
        for (NodeProcess p : others) {
            assertEquals(List.of(), peerLinesSince(p, marks.get(p)), () -> p.name() + ", not on the link, reported\n" + context.get());
        }
    }

    @Test
    void shouldSuspectNoLivePeerAtFivePercentLossThenDetectAKill() throws Exception {
        soak(SHORT, 1);
    }

    @Test
    @Tag("soak")
    void soakShouldSuspectNoLivePeerForTenMinutesAtFivePercentLoss() throws Exception {
        soak(SOAK, 5);
    }

    /**
     * Four processes at {@link #LOSS_PERCENT} loss for {@code duration}: counts the peerDown
     * reports of live peers (false suspicions), then {@code kills} times starts a fresh node and
     * kills it with SIGKILL, and measures each of its neighbours' detection.
     */
    private void soak(Duration duration, int kills) throws Exception {
        List<NodeProcess> nodes = overlay("s", 4);
        Supplier<String> context = () -> "seed " + SEED + "\n" + cluster.describe();
        Map<NodeProcess, Set<String>> neighbours = new HashMap<>();
        nodes.forEach(p -> neighbours.put(p, p.neighbours()));
        int monitors = neighbours.values().stream().mapToInt(Set::size).sum();
        Map<NodeProcess, Integer> marks = marks(nodes);
        long[] before = heartbeats(nodes);

        ns.loss(LOSS_PERCENT);
        long started = System.nanoTime();
        long end = started + duration.toNanos();
        long nextReport = started + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() - end < 0) {
            LockSupport.parkNanos(Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(1, end - System.nanoTime())));
            for (NodeProcess p : nodes) {
                assertTrue(p.isAlive(), () -> p.name() + " died during the run\n" + context.get());
            }
            if (System.nanoTime() - nextReport >= 0) {
                System.out.printf(Locale.ROOT, "heartbeat-fd soak: %d s, %d false suspicion(s) so far%n",
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), suspicions(nodes, marks).size());
                nextReport += TimeUnit.MINUTES.toNanos(1);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        LossyNamespace.Counts counts = ns.counts();
        long[] after = heartbeats(nodes);
        for (NodeProcess p : nodes) {
            p.request("ping after", "PONG", REPLY);
        }
        List<String> suspicions = suspicions(nodes, marks);
        long sent = after[0] - before[0];
        long received = after[1] - before[1];
        System.out.printf(Locale.ROOT, "heartbeat-fd soak: %d processes, %d monitors, %d %% loss, %.0f s: %d false suspicion(s); "
                + "heartbeats sent %,d, received %,d, lost %,d (%.2f %%); UDP datagrams %,d, dropped by nft %,d (%.2f %%)%s%n",
                nodes.size(), monitors, LOSS_PERCENT, seconds, suspicions.size(), sent, received, sent - received,
                100.0 * (sent - received) / Math.max(1, sent), counts.udp(), counts.dropped(),
                100.0 * counts.dropped() / Math.max(1, counts.udp()), suspicions.isEmpty() ? "" : ": " + suspicions);
        for (NodeProcess p : nodes) {
            // a changed overlay would make a live peer stop heartbeating a former neighbour: not a clean run
            assertEquals(neighbours.get(p), p.neighbours(), () -> p.name() + "'s neighbours changed during the run\n" + context.get());
        }
        assertTrue(sent > 0 && received > 0, () -> "no heartbeats counted: " + sent + " sent, " + received + " received\n" + context.get());
        assertTrue(counts.dropped() > 0, () -> "nft dropped nothing: " + counts + "\n" + context.get());
        assertEquals(List.of(), suspicions, () -> "live peers reported down\n" + context.get());

        List<Long> delays = new ArrayList<>();
        List<NodeProcess> live = new ArrayList<>(nodes);
        for (int k = 1; k <= kills; k++) {
            delays.addAll(killFreshNode("k" + k, live, context));
        }
        Collections.sort(delays);
        System.out.printf(Locale.ROOT, "heartbeat-fd: kill -9 at %d %% loss, %d report(s) of %d kill(s): min %d ms, median %d ms, "
                + "max %d ms (wall clock from the kill, loaded machine included): %s%n", LOSS_PERCENT, delays.size(), kills,
                delays.get(0), delays.get(delays.size() / 2), delays.get(delays.size() - 1), delays);
    }

    /**
     * Starts node {@code name}, waits until its neighbours report it up, kills it with SIGKILL and
     * waits for each of them to report it down.
     *
     * @return each neighbour's delay from the kill to its report, in milliseconds
     */
    private List<Long> killFreshNode(String name, List<NodeProcess> live, Supplier<String> context) {
        cluster.awaitOverlay(live, FORM, context);
        Map<NodeProcess, Integer> marks = marks(live);
        Set<String> taken = new HashSet<>();
        cluster.processes().forEach(p -> taken.add(p.address()));
        String address = OverlayAddresses.distinct("TREE", 1, random).get(0);
        while (taken.contains(address)) {
            address = OverlayAddresses.distinct("TREE", 1, random).get(0);
        }
        NodeProcess victim = listening(HeartbeatFdAcrossProcessesTest.start(cluster, name,
                NodeConfig.of("it-hbfd", "TREE", "udp", address).withBuddies(List.of(buddy)), spec));
        victim.awaitPrefix(0, "JOINED", START);
        List<NodeProcess> all = new ArrayList<>(live);
        all.add(victim);
        cluster.awaitOverlay(all, FORM, context);
        List<NodeProcess> watchers = live.stream().filter(p -> victim.neighbours().contains(p.address())).toList();
        assertTrue(!watchers.isEmpty(), () -> name + " has no neighbour\n" + context.get());
        for (NodeProcess w : watchers) {
            w.awaitLine(marks.get(w), l -> l.equals("PEER " + victim.address() + " UP NONE"), DETECT,
                    w.name() + "'s peerUp of " + name);
        }
        long killedAt = System.nanoTime();
        victim.kill();
        List<Long> delays = new ArrayList<>();
        for (NodeProcess w : watchers) {
            String down = w.awaitLine(marks.get(w), l -> l.startsWith("PEER " + victim.address() + " DOWN"), DETECT,
                    w.name() + "'s report that " + name + " is down");
            delays.add(msSince(killedAt));
            assertTrue(down.equals("PEER " + victim.address() + " DOWN TIMEOUT")
                    || down.equals("PEER " + victim.address() + " DOWN CRASH"), down);
        }
        victim.awaitExit(REPLY);
        return delays;
    }

    /** Skips without root and nft (as the testbed does), else a namespace and {@code n} nodes with the service, listening. */
    private List<NodeProcess> overlay(String tag, int n) throws IOException, InterruptedException {
        String why = LossyNamespace.unavailableReason();
        if (why != null) {
            System.out.println(getClass().getSimpleName() + " SKIPPED: " + why);
        }
        assumeTrue(why == null, "heartbeat-fd in a network namespace skipped: " + why);
        ns = LossyNamespace.create("sc-hb" + tag + "-" + ProcessHandle.current().pid() % 100_000);
        cluster = new NodeCluster(dir, ns.exec());
        spec = HeartbeatFdAcrossProcessesTest.spec();
        random = new Random(SEED);
        List<String> addresses = OverlayAddresses.distinct("TREE", n, random);
        NodeProcess founder = listening(HeartbeatFdAcrossProcessesTest.start(cluster, "n0",
                NodeConfig.of("it-hbfd", "TREE", "udp", addresses.get(0)), spec));
        buddy = founder.awaitReady(START).substrate("udp");
        List<NodeProcess> nodes = new ArrayList<>(List.of(founder));
        for (int i = 1; i < n; i++) {
            nodes.add(listening(HeartbeatFdAcrossProcessesTest.start(cluster, "n" + i,
                    NodeConfig.of("it-hbfd", "TREE", "udp", addresses.get(i)).withBuddies(List.of(buddy)), spec)));
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> "seed " + SEED);
        settle(nodes);
        return List.copyOf(nodes);
    }

    /**
     * Asks {@code p} for its peer events at once: the command waits in its input until the node
     * reads commands, right after it starts joining, before any neighbour can heartbeat it.
     */
    private static NodeProcess listening(NodeProcess p) {
        p.send("peers " + SERVICE);
        return p;
    }

    /**
     * Waits until every node has reported each of its neighbours up, and each former neighbour
     * (the overlay may rearrange while nodes join; such a peer stops heartbeating it) down: after
     * this, a node reports a peer only if something happens to it.
     */
    private void settle(List<NodeProcess> nodes) {
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "PEERS", REPLY);
            for (String peer : p.neighbours()) {
                p.awaitLine(0, l -> l.equals("PEER " + peer + " UP NONE"), DETECT, p.name() + "'s peerUp of " + peer);
            }
            Map<String, Integer> lastUp = new HashMap<>();
            List<String> lines = p.lines();
            for (int i = 0; i < lines.size(); i++) {
                String[] t = lines.get(i).split(" ");
                if (t.length == 4 && t[0].equals("PEER")) {
                    if (t[2].equals("UP")) {
                        lastUp.put(t[1], i);
                    } else {
                        lastUp.remove(t[1]);
                    }
                }
            }
            lastUp.forEach((peer, at) -> {
                if (!p.neighbours().contains(peer)) {
                    p.awaitLine(at, l -> l.startsWith("PEER " + peer + " DOWN"), DETECT, p.name() + "'s peerDown of former neighbour " + peer);
                }
            });
        }
    }

    private static Map<NodeProcess, Integer> marks(List<NodeProcess> nodes) {
        Map<NodeProcess, Integer> marks = new HashMap<>();
        nodes.forEach(p -> marks.put(p, p.lineCount()));
        return marks;
    }

    private static List<String> peerLinesSince(NodeProcess p, int mark) {
        List<String> lines = p.lines();
        return lines.subList(mark, lines.size()).stream().filter(l -> l.startsWith("PEER ")).toList();
    }

    /** peerDown reports since the marks ("node: line"): every node here is alive. */
    private static List<String> suspicions(List<NodeProcess> nodes, Map<NodeProcess, Integer> marks) {
        List<String> out = new ArrayList<>();
        for (NodeProcess p : nodes) {
            peerLinesSince(p, marks.get(p)).stream().filter(l -> l.contains(" DOWN ")).forEach(l -> out.add(p.name() + ": " + l));
        }
        return out;
    }

    /** Heartbeat datagrams sent and received by all nodes so far (no application traffic: forwarding counts heartbeats only). */
    private static long[] heartbeats(List<NodeProcess> nodes) throws IOException {
        long sent = 0;
        long received = 0;
        for (NodeProcess p : nodes) {
            JsonNode stats = JSON.readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
            sent += stats.path("forwarding").path("transmissions").asLong();
            received += stats.path("forwarding").path("received").asLong();
        }
        return new long[] {sent, received};
    }

    private static int udpPort(NodeProcess p) {
        return URI.create(NodeProcess.Ready.parse(p.last("READY").orElseThrow()).substrate("udp")).getPort();
    }

    private static long msSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
