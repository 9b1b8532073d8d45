package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nak-multicast service (ServiceID 11) across a relay killed mid-stream, between six node
 * processes over UDP on loopback (issue #29; the simulation's counterpart is services'
 * {@code NakMulticastTest.aRelayKilledMidStreamShouldCostNoReceiverThatStaysUpAMessage}).
 *
 * <p>The links (buddies) and ids make one known tree. The source has the largest id, so it is the
 * TREE overlay's root; a node takes as parent the link with the fewest hops to the root:
 * <pre>
 *   links: source–relay, source–a, a–b, relay–c, relay–d, b–c, c–d
 *   tree:  source ─ relay ─ c        (c via b would be 3 hops, d via c 3)
 *                 │       └ d
 *                 └ a ─ b
 * </pre>
 * The source streams K messages, a batch every PERIOD; once the relay has delivered a fifth of
 * them it is killed with SIGKILL. c and d hear nothing until their link to the relay times out
 * (TIMEOUT_MS); then c takes b as parent and d takes c, the source's session messages and next
 * messages show them the gap, and their NAKs get it repaired from the source. Every node but the
 * relay must deliver all K once, intact, in order.
 */
class NakMulticastRelayKillTest {

    static final int SERVICE = 11;
    static final int K = 300;
    static final int BATCH = 5;
    /** A batch every 100 ms: 50 messages per second. */
    static final Duration PERIOD = Duration.ofMillis(100);
    static final int SIZE = 512;
    /** The relay is killed once it has delivered this many: mid-stream. */
    static final int KILL_AT = K / 5;
    /** Neighbour timeout: a dead relay's links are dropped and the tree repaired after about 2 s. */
    static final int TIMEOUT_MS = 2_000;
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(90);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    /**
     * The store's defaults (Buffer 64 in a history of 128 entries) but for {@code Stall}. With the
     * relay dead, the source's messages reach neither it nor c and d, so none of them reports:
     * after Buffer unreported messages (about 1.3 s at this rate) the flow control holds the
     * source's application back, and the source never lets go of a message c or d lacks. That
     * holds as long as c and d count, i.e. until they are silent for Stall; so Stall must exceed
     * the repair (the 2 s neighbour timeout, the tree's new edges, the NAK rounds: 2–4 s here).
     * The default, 5 s, leaves little margin on a loaded machine (one run in 27 at load 11 had a
     * survivor skip a message with 8 s); 15 s does, with the socket's
     * {@code overlay.sendWindow.maxWaitMs}, the longest a send waits, raised from 10 to 30 s to
     * stay above it. The dead relay holds the source back for Stall too, then drops out of the
     * count. A Buffer covering the whole stream would also do, but would not exercise the
     * source's bound.
     */
    static final String STORE = """
            services:
              - { uri: "classpath:services/nak-multicast.scxml", parameters: { Stall: 15000 } }
            """;

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyReceiverThatStaysUpShouldGetEveryMessageOnceInOrderWhenARelayIsKilledMidStream() {
        String context = "seed " + SEED;
        // also for failures whose message does not name it (a node that never prints READY)
        System.out.println(getClass().getSimpleName() + ": " + context);
        Random random = new Random(SEED);
        cluster = new NodeCluster(dir);
        List<String> ids = new ArrayList<>(OverlayAddresses.distinct("TREE", 6, random));
        ids.sort(Comparator.comparing(Long::parseLong, Comparator.reverseOrder()));
        List<String> others = new ArrayList<>(ids.subList(1, ids.size()));
        Collections.shuffle(others, random);

        NodeProcess source = start("source", ids.get(0), List.of());
        String sourceUdp = source.awaitReady(START).substrate("udp");
        NodeProcess relay = start("relay", others.get(0), List.of(sourceUdp));
        NodeProcess a = start("a", others.get(1), List.of(sourceUdp));
        String relayUdp = relay.awaitReady(START).substrate("udp");
        NodeProcess c = start("c", others.get(2), List.of(relayUdp));
        String aUdp = a.awaitReady(START).substrate("udp");
        String cUdp = c.awaitReady(START).substrate("udp");
        NodeProcess b = start("b", others.get(3), List.of(aUdp, cUdp));
        NodeProcess d = start("d", others.get(4), List.of(relayUdp, cUdp));
        List<NodeProcess> nodes = List.of(source, relay, a, b, c, d);
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);
        Map<NodeProcess, Set<NodeProcess>> tree = Map.of(source, Set.of(relay, a), relay, Set.of(source, c, d),
                a, Set.of(source, b), b, Set.of(a), c, Set.of(relay), d, Set.of(relay));
        Await.until(() -> nodes.stream().allMatch(p -> p.neighbours().equals(addresses(tree.get(p)))), FORM,
                () -> context + ": the tree " + tree.keySet().stream().map(p -> p.name() + "=" + p.neighbours()).toList()
                        + " is not the one the ids and links give\n" + cluster.describe());

        long began = System.nanoTime();
        long killedAt = stream(source, relay, context);
        List<NodeProcess> survivors = List.of(source, a, b, c, d);
        cluster.awaitOverlay(survivors, FORM, () -> context + ": the tree is not repaired without the relay");
        List<NodeProcess> receivers = List.of(a, b, c, d);
        Await.until(() -> receivers.stream().allMatch(p -> recv(p).size() >= K), DELIVER,
                () -> context + ": not every message arrived\n" + survivors.stream().map(NakMulticastRelayKillTest::story)
                        .reduce("", String::concat) + cluster.describe());
        long done = System.nanoTime();

        List<String> expected = LongStream.range(0, K)
                .mapToObj(seq -> "RECV " + source.address() + " MULTICAST " + SIZE + " " + seq + " ok").toList();
        for (NodeProcess p : receivers) {
            p.request("ping done", "PONG", REPLY);
            assertEquals(expected, recv(p), () -> context + ": " + p.name() + " gets each of the source's messages once, "
                    + "intact, in order\n" + p.describe());
        }
        assertTrue(recv(relay).size() < K, () -> context + ": the relay was killed mid-stream\n" + relay.describe());
        // no loss is injected: the source's data sends beyond its K messages are repairs, each
        // answering a NAK, from c and d for what the dead relay cut them off from
        long repairs = dataSends(source) - K;
        assertTrue(repairs > 0, () -> context + ": c and d recovered by NAK; " + source.describe());
        System.out.printf("%s: relay killed %d ms into the stream; every receiver had all %d messages %d ms later;"
                + " %d repairs%n", context, TimeUnit.NANOSECONDS.toMillis(killedAt - began), K,
                TimeUnit.NANOSECONDS.toMillis(done - killedAt), repairs);
    }

    /**
     * Sends K messages from {@code source}, a batch of BATCH every PERIOD (the control thread queues
     * the batches while the flow control holds a send back), and kills {@code relay} once it has
     * delivered KILL_AT; returns when every batch was sent, with the time of the kill.
     */
    private long stream(NodeProcess source, NodeProcess relay, String context) {
        int mark = source.lineCount();
        long start = System.nanoTime();
        long killedAt = 0;
        for (int i = 0; i < K / BATCH; i++) {
            long wait = start + i * PERIOD.toNanos() - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            source.send("send-all " + BATCH + " " + SIZE + " " + SERVICE);
            if (killedAt == 0 && recv(relay).size() >= KILL_AT) {
                relay.kill();
                killedAt = System.nanoTime();
            }
        }
        assertTrue(killedAt != 0, () -> context + ": the relay had not delivered " + KILL_AT + " when the stream ended\n"
                + relay.describe());
        Await.until(() -> sentLines(source, mark).size() == K / BATCH
                || sentLines(source, mark).stream().anyMatch(l -> l.startsWith("ERR")), DELIVER,
                () -> context + ": the source did not send every batch\n" + source.describe());
        for (String l : sentLines(source, mark)) {
            assertTrue(l.startsWith("SENT MULTICAST " + BATCH + " "), () -> context + ": " + l + "\n" + source.describe());
        }
        return killedAt;
    }

    /**
     * For a failure message: what {@code p} delivered (how many, which numbers are missing) and
     * its other lines (topology changes, errors) placed among its deliveries.
     */
    private static String story(NodeProcess p) {
        StringBuilder b = new StringBuilder("--- ").append(p.name()).append(' ').append(p.address()).append('\n');
        BitSet got = new BitSet();
        long last = -1;
        int delivered = 0;
        for (String l : p.lines()) {
            if (l.startsWith("RECV ")) {
                String[] t = l.split(" ");
                last = t[4].equals("-") ? -1 : Long.parseLong(t[4]);
                if (last >= 0) {
                    got.set((int) last);
                }
                delivered++;
            } else if (!l.startsWith("READY") && !l.startsWith("PONG") && !l.startsWith("SENT")) {
                b.append("  after ").append(delivered).append(" (last ").append(last).append("): ").append(l).append('\n');
            }
        }
        b.append("  ").append(p.isAlive() ? drops(p) : "exited").append('\n');
        b.append("  delivered ").append(delivered).append(", missing");
        for (int i = got.nextClearBit(0); i < K; i = got.nextClearBit(i)) {
            int end = Math.min(K, got.nextSetBit(i) < 0 ? K : got.nextSetBit(i));
            b.append(' ').append(i).append(end - 1 > i ? "-" + (end - 1) : "");
            i = end;
        }
        return b.append('\n').toString();
    }

    /** The non-zero drop counters and the link counts of {@code p}'s STATS line: for failure messages. */
    private static String drops(NodeProcess p) {
        try {
            JsonNode stats = new ObjectMapper().readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
            StringBuilder b = new StringBuilder("links ").append(stats.path("node"));
            for (JsonNode drops : List.of(stats.path("forwarding").path("drops"), stats.path("messageStore").path("node").path("drops"))) {
                drops.fields().forEachRemaining(e -> {
                    if (e.getValue().asLong() != 0) {
                        b.append(' ').append(e.getKey()).append('=').append(e.getValue());
                    }
                });
            }
            return b.toString();
        } catch (JsonProcessingException | AssertionError e) {
            return "no STATS: " + e;
        }
    }

    private static List<String> sentLines(NodeProcess p, int from) {
        List<String> all = p.lines();
        return all.subList(from, all.size()).stream()
                .filter(l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR")).toList();
    }

    /** The data messages the node's nak-multicast instances sent (SEND_DATA_MESSAGE calls), from its STATS line. */
    private static long dataSends(NodeProcess p) {
        try {
            JsonNode stats = new ObjectMapper().readTree(p.request("stats", "STATS", REPLY).substring("STATS ".length()));
            for (JsonNode service : stats.path("messageStore").path("services")) {
                if (service.path("serviceId").asInt() == SERVICE) {
                    return service.path("counters").path("primitives").path("SEND_DATA_MESSAGE").asLong();
                }
            }
            throw new AssertionError(p.name() + " has no nak-multicast in its STATS: " + stats);
        } catch (JsonProcessingException e) {
            throw new AssertionError(p.name() + ": STATS is not JSON", e);
        }
    }

    private static Set<String> addresses(Set<NodeProcess> nodes) {
        return Set.copyOf(nodes.stream().map(NodeProcess::address).toList());
    }

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    private NodeProcess start(String name, String id, List<String> buddies) {
        NodeConfig node = NodeConfig.of("it-nak-relay", "TREE", "udp", id).withBuddies(buddies).withTimeoutMs(TIMEOUT_MS);
        Path file = cluster.write(name + ".yaml", node.yaml() + "  sendWindow: { maxWaitMs: 30000 }\n"
                + "  messageStore:\n" + STORE.indent(4));
        return cluster.startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin"));
    }
}
