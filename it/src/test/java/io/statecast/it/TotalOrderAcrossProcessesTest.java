package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The total-order service (ServiceID 30, {@code classpath:services/total-order.scxml}) on three
 * node processes over UDP on loopback, all members sending at once: every application gets all
 * 3·K messages, and all three get them in one order. A RECV line names the member that sent that
 * copy (a retransmission names the member that repeated it), so the order is compared on the
 * payloads' sequence numbers and sizes; the configuration notices arrive as RECV lines without a
 * payload (size 0), in their places of the order. A member killed with SIGKILL mid-run: the others
 * form a new ring and go on in one order. Under loss ({@code node --input-loss} at every member)
 * every member still delivers everything in one order.
 */
class TotalOrderAcrossProcessesTest {

    static final int SERVICE = 30;
    static final int MEMBERS = 3;
    static final int K = 100;
    static final int SIZE = 512;
    static final int K_LOSSY = 67;
    /** Input loss of the lossy run: enough that a leaf's message is lost at both others in most runs. */
    static final double LOSS = 0.05;
    static final Duration DELIVER_LOSSY = Duration.ofSeconds(60);
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(120);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * The store: the service with the group, room in the history for the queue and the backlog,
     * primitives for a whole group's traffic, and token timers that a loaded machine (several
     * JVMs on two cores) does not take for a failure.
     */
    static String store(List<String> group) {
        return "instances: { historyEntries: 4000, primitiveBurst: 100000, primitiveRatePerSecond: 1000000 }\n"
                + "services:\n"
                + "  - { uri: \"classpath:services/total-order.scxml\", parameters: { Group: \"" + String.join(" ", group)
                + "\", TokenRetransmit: 300, MaxResends: 40, TokenLoss: 10000, StartDelay: 1000, Interval: 250 } }\n";
    }

    /** Starts the members one after the other (each joins through the first) and waits for the overlay. */
    private List<NodeProcess> startMembers(String context) {
        return startMembers(context, 0);
    }

    /** As {@link #startMembers(String)}, each member's UDP input dropping this share of the datagrams. */
    private List<NodeProcess> startMembers(String context, double inputLoss) {
        cluster = new NodeCluster(dir);
        List<String> addresses = OverlayAddresses.distinct("TREE", MEMBERS, new Random(SEED));
        List<NodeProcess> nodes = new ArrayList<>();
        String buddy = null;
        for (int i = 0; i < MEMBERS; i++) {
            NodeConfig c = NodeConfig.of("it-total-order", "TREE", "udp", addresses.get(i));
            NodeProcess p = start("m" + i, buddy == null ? c : c.withBuddies(List.of(buddy)), addresses, inputLoss);
            if (buddy == null) {
                buddy = p.awaitReady(START).substrate("udp");
            }
            nodes.add(p);
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);
        return nodes;
    }

    @Test
    void shouldDeliverEveryMembersMessagesInOneOrderAtEveryMember() {
        String context = "seed " + SEED;
        List<NodeProcess> nodes = startMembers(context);

        List<Integer> marks = new ArrayList<>();
        for (NodeProcess p : nodes) {
            marks.add(p.lineCount());
            p.send("send-to " + p.address() + " " + K + " " + SIZE + " " + SERVICE);
        }
        for (int i = 0; i < MEMBERS; i++) {
            NodeProcess p = nodes.get(i);
            String sent = p.awaitLine(marks.get(i), l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"),
                    REPLY, "SENT");
            assertTrue(sent.startsWith("SENT UNICAST " + K + " 0 " + (K - 1)), () -> context + ": " + p.name() + ": " + sent);
        }
        Await.until(() -> nodes.stream().allMatch(p -> data(order(p)).size() >= MEMBERS * K), DELIVER,
                () -> context + ": not every message arrived\n" + cluster.describe());
        List<String> first = order(nodes.get(0));
        for (NodeProcess p : nodes) {
            p.request("ping done", "PONG", REPLY);
            assertEquals("0 -", order(p).get(0), () -> context + ": " + p.name() + " is told the ring's members first\n"
                    + p.describe());
            List<String> got = data(order(p));
            assertEquals(MEMBERS * K, got.size(), () -> context + ": " + p.name() + " got each message once\n" + p.describe());
            assertEquals(data(first), got, () -> context + ": " + p.name() + " delivers in " + nodes.get(0).name() + "'s order\n"
                    + p.describe());
            for (int s = 0; s < K; s++) {
                int seq = s;
                assertEquals(MEMBERS, got.stream().filter(l -> l.equals(SIZE + " " + seq)).count(),
                        () -> context + ": " + p.name() + ": number " + seq + " once from each member");
            }
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());
        }
    }

    /**
     * Every member's UDP input drops 5 % of the datagrams (data, tokens, acknowledgements and
     * heartbeats alike): lost messages are asked for on the token and sent again, so every member
     * still delivers all of them, in one order. A message of a leaf of the tree reaches both other
     * members through the same first hop, so a loss there loses it at both: only its sender's own
     * copy (receiveOwnUnicast) can send it again. Before the store's sends that name an origin
     * handed that copy back, no member held it and the ring stopped for good (31 and 62 of 201).
     */
    @Test
    void shouldDeliverEveryMessageInOneOrderUnderInputLoss() {
        String context = "seed " + SEED + ", " + Math.round(LOSS * 100) + "% input loss at every member";
        List<NodeProcess> nodes = startMembers(context, LOSS);
        long t0 = System.nanoTime();
        for (NodeProcess p : nodes) {
            int mark = p.lineCount();
            p.send("send-to " + p.address() + " " + K_LOSSY + " " + SIZE + " " + SERVICE);
            String sent = p.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
            assertTrue(sent.startsWith("SENT UNICAST " + K_LOSSY), () -> context + ": " + p.name() + ": " + sent);
        }
        Await.until(() -> nodes.stream().allMatch(p -> data(order(p)).size() >= MEMBERS * K_LOSSY), DELIVER_LOSSY,
                () -> context + ": not every message arrived ("
                        + nodes.stream().map(p -> p.name() + " " + data(order(p)).size()).toList() + " of " + MEMBERS * K_LOSSY
                        + ")\n" + stats(nodes) + cluster.describe());
        System.out.printf("total-order across processes: %d messages delivered at every member in %d ms; %s%n",
                MEMBERS * K_LOSSY, (System.nanoTime() - t0) / 1_000_000, context);
        List<String> first = order(nodes.get(0));
        for (NodeProcess p : nodes) {
            p.request("ping done", "PONG", REPLY);
            List<String> got = order(p);
            assertEquals(first, got, () -> context + ": " + p.name() + " delivers, notices included, in " + nodes.get(0).name()
                    + "'s order\n" + p.describe());
            for (int s = 0; s < K_LOSSY; s++) {
                int seq = s;
                assertEquals(MEMBERS, got.stream().filter(l -> l.equals(SIZE + " " + seq)).count(),
                        () -> context + ": " + p.name() + ": number " + seq + " once from each member");
            }
        }
    }

    @Test
    void shouldFormANewRingOfTheOthersWhenAMemberIsKilledMidRun() {
        String context = "seed " + SEED;
        List<NodeProcess> nodes = startMembers(context);
        // the ring must exist before a member dies: one that fails before the first token is made
        // is not handled (total-order.md), and a fast start could kill it that early
        Await.until(() -> nodes.stream().allMatch(p -> order(p).contains("0 -")), DELIVER,
                () -> context + ": no ring's notice at every member\n" + cluster.describe());
        // sizes tell the original senders apart (a RECV line names the member that sent that copy)
        for (int i = 0; i < MEMBERS; i++) {
            NodeProcess p = nodes.get(i);
            int mark = p.lineCount();
            p.send("send-to " + p.address() + " " + K + " " + (SIZE + i) + " " + SERVICE);
            String sent = p.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
            assertTrue(sent.startsWith("SENT UNICAST " + K), () -> context + ": " + p.name() + ": " + sent);
        }
        // the last member (a leaf of the tree: the others stay connected) dies with its messages in flight
        NodeProcess victim = nodes.get(MEMBERS - 1);
        victim.kill();
        long killedAt = System.nanoTime();
        List<NodeProcess> survivors = nodes.subList(0, MEMBERS - 1);
        Await.until(() -> survivors.stream().allMatch(p -> countData(p, SIZE) >= K && countData(p, SIZE + 1) >= K),
                DELIVER, () -> context + ": the survivors' messages did not all arrive\n" + cluster.describe());
        // the survivors' next messages: delivered only by a ring that goes on without the victim
        for (int i = 0; i < survivors.size(); i++) {
            NodeProcess p = survivors.get(i);
            int mark = p.lineCount();
            p.send("send-to " + p.address() + " " + K + " " + (SIZE + 10 + i) + " " + SERVICE);
            p.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
        }
        Await.until(() -> survivors.stream().allMatch(p -> countData(p, SIZE + 10) >= K && countData(p, SIZE + 11) >= K), DELIVER,
                () -> context + ": the survivors' messages after the kill did not all arrive\n" + cluster.describe());
        System.out.printf("total-order across processes: the survivors delivered everything %d ms after the kill; %s%n",
                (System.nanoTime() - killedAt) / 1_000_000, context);
        List<String> first = order(survivors.get(0));
        for (NodeProcess p : survivors) {
            p.request("ping done", "PONG", REPLY);
            List<String> got = order(p);
            assertEquals(first, got, () -> context + ": " + p.name() + " delivers, notices included, in "
                    + survivors.get(0).name() + "'s order\n" + p.describe());
            assertTrue(got.stream().filter(l -> l.equals("0 -")).count() >= 2,
                    () -> context + ": " + p.name() + " was told of the ring and of the ring without the victim: " + got);
            List<String> d = data(got);
            assertEquals(d.size(), new java.util.HashSet<>(d).size(), () -> context + ": " + p.name() + " delivered a message twice");
        }
    }

    private static long countData(NodeProcess p, int size) {
        return order(p).stream().filter(l -> l.startsWith(size + " ")).count();
    }

    /** The data lines of an order: the notices (no payload) left out. */
    private static List<String> data(List<String> order) {
        return order.stream().filter(l -> !l.equals("0 -")).toList();
    }

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    /** "SIZE SEQ" of each RECV line, in delivery order. */
    private static List<String> order(NodeProcess p) {
        List<String> out = new ArrayList<>();
        for (String l : recv(p)) {
            String[] w = l.split(" ");
            out.add(w[3] + " " + w[4]);
        }
        return out;
    }

    private NodeProcess start(String name, NodeConfig node, List<String> group, double inputLoss) {
        Path file = cluster.write(name + ".yaml", node.yaml() + "  messageStore:\n" + store(group).indent(4));
        List<String> args = new ArrayList<>(List.of("node", "--config", file.toString(), "--control", "stdin"));
        if (inputLoss > 0) {
            args.addAll(List.of("--input-loss", String.valueOf(inputLoss), "--loss-seed", String.valueOf(SEED + name.hashCode())));
        }
        return cluster.startRaw(name, args);
    }

    /** Each member's STATS line (the store's drops, history evictions, engine errors): what a failure needs. */
    private static String stats(List<NodeProcess> nodes) {
        StringBuilder out = new StringBuilder();
        for (NodeProcess p : nodes) {
            try {
                out.append(p.name()).append(": ").append(p.request("stats", "STATS", REPLY)).append('\n');
            } catch (RuntimeException | AssertionError e) {
                out.append(p.name()).append(": no STATS (").append(e.getMessage()).append(")\n");
            }
        }
        return out.toString();
    }
}
